/**
 * The part of a file's change token its stat gives (docs/records-pages.md): size,
 * modification time in nanoseconds and inode, or `-` when the path is missing. Adapters
 * build `changeToken` from it, so a store edited in place or replaced reads as changed.
 */
import fs from 'node:fs';

export function statKey(p: string): string {
  try {
    const s = fs.statSync(p, { bigint: true });
    return `${s.size}:${s.mtimeNs}:${s.ino}`;
  } catch {
    return '-';
  }
}
