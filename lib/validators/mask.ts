/**
 * Masked excerpts for secret findings.
 *
 * A finding message travels to the terminal, the audit trail, the database and
 * reports (docs/credentials.md), so it may say *what* was found but never repeat it.
 * Each mask keeps at most a well-known public prefix (`ghp_`, `AKIA`, `eyJ`, …),
 * one leading character where a prefix would be meaningless (e-mail), and the
 * length — enough for the owner to find the spot, useless to anyone else.
 */

const ELLIPSIS = '…';

function chars(value: string): number {
  // Code points, like every other length in memtrust (docs/memory-files.md).
  return [...value].length;
}

/** `ghp_…(40 chars)`: the known prefix and the full length, nothing else. */
export function maskToken(value: string, prefix: string): string {
  return `${prefix}${ELLIPSIS}(${chars(value)} chars)`;
}

/** `j…@e…(17 chars)`: first character of each side of the `@`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at > 0 ? email.slice(0, at) : email;
  const domain = at > 0 ? email.slice(at + 1) : '';
  const head = [...local][0] ?? '';
  const host = [...domain][0] ?? '';
  return `${head}${ELLIPSIS}@${host}${ELLIPSIS}(${chars(email)} chars)`;
}

/** `10.x.x.x`, `172.x.x.x`, `192.168.x.x`: the range is public knowledge, the host is not. */
export function maskIpv4(octets: readonly number[]): string {
  const [a, b] = octets;
  if (a === 192 && b === 168) return '192.168.x.x';
  return `${a ?? 'x'}.x.x.x`;
}

/** `fd…(19 chars)`: an fc00::/7 address shows only its first two hex digits. */
export function maskIpv6(address: string): string {
  return `${address.slice(0, 2).toLowerCase()}${ELLIPSIS}(${chars(address)} chars)`;
}

export type HomeStyle = 'macos' | 'linux' | 'windows';

/** `/home/<other user>/`: the name itself is the personal part, so it never shows. */
export function maskHomePath(style: HomeStyle): string {
  if (style === 'macos') return '/Users/<other user>/';
  if (style === 'linux') return '/home/<other user>/';
  return 'C:\\Users\\<other user>\\';
}

/** `https://…:…@…(42 chars)`: the scheme tells the owner which URL; user, password and host stay hidden. */
export function maskUrlCredentials(url: string): string {
  const sep = url.indexOf('://');
  const scheme = sep > 0 ? url.slice(0, sep) : '';
  return `${scheme}://${ELLIPSIS}:${ELLIPSIS}@${ELLIPSIS}(${chars(url)} chars)`;
}
