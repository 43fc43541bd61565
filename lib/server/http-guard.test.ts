import { describe, expect, it } from 'vitest';
import { guardRequest } from './http-guard';

const port = 4321;

describe('Host allowlist (DNS rebinding)', () => {
  it.each([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`])('accepts %s', (host) => {
    expect(guardRequest({ method: 'GET', host, origin: undefined, port })).toEqual({ ok: true });
  });
  it.each([
    'evil.test',
    `evil.test:${port}`,
    '127.0.0.1',
    `127.0.0.1:${port + 1}`,
    `localhost.evil.test:${port}`,
    '',
    `127.0.0.2:${port}`,
  ])('refuses %j with 421', (host) => {
    expect(guardRequest({ method: 'GET', host, origin: undefined, port })).toMatchObject({ ok: false, status: 421 });
  });
  it('refuses a missing Host', () => {
    expect(guardRequest({ method: 'GET', host: undefined, origin: undefined, port })).toMatchObject({
      ok: false,
      status: 421,
    });
  });
});

describe('Origin on state-changing requests (CSRF)', () => {
  const host = `127.0.0.1:${port}`;
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s needs a same-origin Origin', (method) => {
    expect(guardRequest({ method, host, origin: `http://127.0.0.1:${port}`, port })).toEqual({ ok: true });
    expect(guardRequest({ method, host, origin: `http://localhost:${port}`, port })).toEqual({ ok: true });
    expect(guardRequest({ method, host, origin: undefined, port })).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest({ method, host, origin: 'null', port })).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest({ method, host, origin: 'http://evil.test', port })).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest({ method, host, origin: `https://127.0.0.1:${port}`, port })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(guardRequest({ method, host, origin: `http://127.0.0.1:${port + 1}`, port })).toMatchObject({
      ok: false,
      status: 403,
    });
  });
  it('GET and HEAD need no Origin', () => {
    expect(guardRequest({ method: 'GET', host, origin: 'http://evil.test', port })).toEqual({ ok: true });
    expect(guardRequest({ method: 'HEAD', host, origin: undefined, port })).toEqual({ ok: true });
  });
});
