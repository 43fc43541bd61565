/**
 * Owner allowances (docs/credentials.md "Owner-allowed networks and accounts"):
 * private networks and home-folder accounts the owner has said are fine to
 * mention. Pure: the lists come in through the owner identity, filled from
 * user settings and `MEMTRUST_ALLOW_NETWORKS` (see docs/credentials.md).
 */
import type { OwnerIdentity } from './types';

type Cidr = { v: 4; base: number; bits: number } | { v: 6; base: bigint; bits: number };

function ipv4ToInt(s: string): number | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

function ipv6ToBig(s: string): bigint | null {
  if (!/^[0-9a-f:]+$/i.test(s) || s.includes(':::')) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  return n;
}

/** `10.0.0.0/8`, `192.168.1.0/24`, `fd00::/8`; a bare address means /32 (/128). Null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const [addr = '', len, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  if (len !== undefined && !/^\d{1,3}$/.test(len)) return null;
  const v4 = ipv4ToInt(addr);
  if (v4 !== null) {
    const bits = len === undefined ? 32 : Number(len);
    return bits <= 32 ? { v: 4, base: v4, bits } : null;
  }
  const v6 = ipv6ToBig(addr);
  if (v6 !== null) {
    const bits = len === undefined ? 128 : Number(len);
    return bits <= 128 ? { v: 6, base: v6, bits } : null;
  }
  return null;
}

/** The entries of a list that are not CIDR blocks (for the settings form and the env check). */
export function invalidCidrs(list: readonly string[]): string[] {
  return list.filter((c) => parseCidr(c) === null);
}

/** `MEMTRUST_ALLOW_NETWORKS`: space separated (commas tolerated). */
export function splitNetworks(raw: string | undefined): string[] {
  return (raw ?? '').split(/[\s,]+/).filter((s) => s !== '');
}

function inCidr(address: string, cidr: Cidr): boolean {
  if (cidr.v === 4) {
    const n = ipv4ToInt(address);
    if (n === null) return false;
    if (cidr.bits === 0) return true;
    const shift = 32 - cidr.bits;
    return Math.floor(n / 2 ** shift) === Math.floor(cidr.base / 2 ** shift);
  }
  const n = ipv6ToBig(address);
  if (n === null) return false;
  const shift = BigInt(128 - cidr.bits);
  return n >> shift === cidr.base >> shift;
}

const parsedCache = new WeakMap<readonly string[], Cidr[]>();

function parsedNetworks(list: readonly string[]): Cidr[] {
  let parsed = parsedCache.get(list);
  if (!parsed) {
    parsed = list.map(parseCidr).filter((c): c is Cidr => c !== null);
    parsedCache.set(list, parsed);
  }
  return parsed;
}

/** Is this private address inside one of the owner's allowed networks? */
export function isAllowedAddress(address: string, owner: OwnerIdentity): boolean {
  const list = owner.allowNetworks;
  if (!list || list.length === 0) return false;
  return parsedNetworks(list).some((c) => inCidr(address, c));
}

/** Is this home-folder name a service or container account the owner allows (`deploy`, `nonroot`)? */
export function isAllowedHomeUser(name: string, owner: OwnerIdentity): boolean {
  const n = name.toLowerCase();
  return (owner.allowHomeUsers ?? []).some((u) => u.trim().toLowerCase() === n);
}
