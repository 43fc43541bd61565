/**
 * A file replaced whole: written to a temp name beside it, then renamed over it, so a reader
 * sees the old bytes or the new ones, never a part (the hooks' caches: the version store's tip,
 * the kept checks). Not fsynced: what these hold can be worked out again. A failure removes the
 * temp file and throws.
 */
import fs from 'node:fs';

export function replaceFile(file: string, data: string, opts: { encoding?: BufferEncoding; mode: number }): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, data, { encoding: opts.encoding ?? 'utf8', mode: opts.mode });
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing left to do
    }
    throw e;
  }
}
