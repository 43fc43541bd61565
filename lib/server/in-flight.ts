/**
 * How many of the dashboard's requests are being answered right now. The HTTP server counts
 * them (serve.ts); work the server does ahead of requests (context-warm.ts) waits until none
 * is, so it never sits between a request and its response. Shared through globalThis because
 * the server and the pages are loaded as separate module instances (Next bundles the pages).
 */
import type { ServerResponse } from 'node:http';

const g = globalThis as unknown as { __memtrustInFlight?: { n: number } };

/** Counts a request until its response is sent or its connection closes. */
export function trackRequest(res: ServerResponse): void {
  g.__memtrustInFlight ??= { n: 0 };
  const counter = g.__memtrustInFlight;
  counter.n++;
  res.once('close', () => {
    counter.n--;
  });
}

/** 0 outside the dashboard's own server (`next dev`, tests): nothing to wait for. */
export function requestsInFlight(): number {
  return g.__memtrustInFlight?.n ?? 0;
}
