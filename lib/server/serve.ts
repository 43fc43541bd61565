/**
 * The dashboard's HTTP server: Next behind the request guard of docs/security.md, bound to 127.0.0.1 only.
 */
import http from 'node:http';
import next from 'next';
import { guardRequest, SECURITY_HEADERS } from './http-guard';
import { projectDir } from '../core/project';
import { trackRequest } from './in-flight';

export async function serve(port: number): Promise<http.Server> {
  const app = next({ dev: false, dir: projectDir(), hostname: '127.0.0.1', port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
    const verdict = guardRequest({
      method: req.method ?? 'GET',
      host: req.headers.host,
      origin: req.headers.origin,
      port,
    });
    if (!verdict.ok) {
      res.writeHead(verdict.status, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
      res.end(`${verdict.message}\n`);
      return;
    }
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    trackRequest(res);
    handle(req, res).catch(() => {
      // Next renders its own error pages; this only catches a broken socket.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('Internal error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}
