/** Building the bytes of a new memory file, and swapping the body of an existing one. */
import { splitFile } from '../../memory-file/split';
import { encodeScalar } from '../../memory-file/scalar-encode';
import { RewriteError } from '../../memory-file/rewrite';

/** Frontmatter keys in the order the trust model's example uses. */
export function composeMemory(fields: Record<string, string>, body: string): Buffer {
  const lines = ['---', ...Object.entries(fields).map(([k, v]) => `${k}: ${encodeScalar(v)}`), '---', ''];
  const text = body.replace(/\r\n/g, '\n');
  return Buffer.from(`${lines.join('\n')}\n${text.endsWith('\n') ? text : `${text}\n`}`, 'utf8');
}

/** Keeps every frontmatter byte and replaces what follows the closing delimiter. */
export function replaceBody(bytes: Buffer, body: Buffer): Buffer {
  const split = splitFile(bytes);
  if (!split.ok) throw new RewriteError('no-frontmatter', 'the file has no frontmatter block');
  return Buffer.concat([bytes.subarray(0, split.bodyStart), body]);
}
