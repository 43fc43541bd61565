/**
 * The checks of docs/security.md that run before any app code: exact Host allowlist
 * (DNS rebinding) and same-origin Origin on state-changing requests (CSRF).
 * Pure, so it is unit-tested without a server.
 */

export interface GuardInput {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  port: number;
}

export type GuardResult = { ok: true } | { ok: false; status: number; message: string };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

export function guardRequest(req: GuardInput): GuardResult {
  const hosts = allowedHosts(req.port);
  const host = (req.host ?? '').toLowerCase();
  if (!hosts.includes(host)) {
    return { ok: false, status: 421, message: `Misdirected request: Host must be one of ${hosts.join(', ')}` };
  }
  if (SAFE_METHODS.has(req.method.toUpperCase())) return { ok: true };
  const origin = req.origin;
  // `null` (sandboxed frames, file://) and a missing Origin are refused alike.
  if (!origin || origin === 'null') {
    return { ok: false, status: 403, message: 'Forbidden: a state-changing request needs a same-origin Origin header' };
  }
  const allowedOrigins = hosts.map((h) => `http://${h}`);
  if (!allowedOrigins.includes(origin.toLowerCase())) {
    return { ok: false, status: 403, message: 'Forbidden: cross-origin request' };
  }
  return { ok: true };
}

/** Headers on every response: no framing, no sniffing, no referrer leaks. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    // Next's runtime needs inline bootstrap scripts; memory text never reaches a script context.
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
