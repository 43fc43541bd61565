/**
 * `memtrust open` without starting anything (docs/install.md): a port held by another
 * program is said and left alone; a bad port is a usage error. Starting the dashboard and
 * finding it running are covered by lib/plugin/package-install.test.ts.
 */
import http from 'node:http';
import type net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeSandbox, runCliAsync, sandbox, type Sandbox } from '../service/test-support';

let sb: Sandbox;
let server: http.Server;
let port: number;

beforeEach(async () => {
  sb = sandbox('memtrust-open-');
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<html><head><title>something else</title></head></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as net.AddressInfo).port;
});
afterEach(async () => {
  await new Promise((r) => server.close(r));
  removeSandbox(sb);
});

describe('memtrust open', () => {
  it('another program on the port: exit 1, names it and a free port to try; nothing started', async () => {
    const r = await runCliAsync(['open', '--port', String(port)], sb.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`another program answers on http://127.0.0.1:${port}/`);
    expect(r.stderr).toContain(`memtrust open --port ${port + 1}`);
    expect(r.stdout).toBe('');
  });

  it('a port that is not a number: usage error', async () => {
    const r = await runCliAsync(['open', '--port', 'eighty'], sb.env);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('--port is not a port number: eighty');
  });
});
