/**
 * Seeded pseudo-random helpers for the demo corpus. Nothing here reads the clock
 * or Math.random: the same seed always yields the same sequence.
 */

export type Rng = () => number;

/** mulberry32: tiny, fast, good enough for test data (not for cryptography). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Normalise a user seed (number or string) to a 32-bit integer. */
export function seedToInt(seed: number | string): number {
  if (typeof seed === 'number' && Number.isFinite(seed)) return Math.trunc(seed) >>> 0;
  let h = 0x811c9dc5; // FNV-1a
  for (const ch of String(seed)) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mix several integers into one well-spread 32-bit seed (murmur3 finaliser). */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** Integer in [lo, hi] inclusive. */
export function int(r: Rng, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

export function pick<T>(r: Rng, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)]!;
}

export function chance(r: Rng, p: number): boolean {
  return r() < p;
}

/** In-place Fisher–Yates shuffle. */
export function shuffle<T>(r: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    const tmp = items[i]!;
    items[i] = items[j]!;
    items[j] = tmp;
  }
  return items;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

export function chars(r: Rng, alphabet: string, len: number): string {
  let out = '';
  for (let i = 0; i < len; i++) out += alphabet[Math.floor(r() * alphabet.length)];
  return out;
}

export const alnum = (r: Rng, len: number) => chars(r, ALNUM, len);
export const hex = (r: Rng, len: number) => chars(r, HEX, len);

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex32 = (r: Rng) => {
  const x = (r() * 4294967296) >>> 0;
  return BYTE_HEX[x >>> 24]! + BYTE_HEX[(x >>> 16) & 255]! + BYTE_HEX[(x >>> 8) & 255]! + BYTE_HEX[x & 255]!;
};

/** UUID-shaped id (version 4 layout). */
export function uuid(r: Rng): string {
  const a = hex32(r);
  const b = hex32(r);
  const c = hex32(r);
  const d = hex32(r);
  const variant = '89ab'[Math.floor(r() * 4)];
  return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}
