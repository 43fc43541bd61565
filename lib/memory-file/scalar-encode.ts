/**
 * Writes a string as a YAML scalar that reads back as exactly that string.
 *
 * Plain style is used only when a reader gets the same *string* back with any
 * YAML 1.2 core-schema parser, so `123`, `true`, `null` and `~` are quoted:
 * memtrust would read them as text, but other tools reading the same file
 * (gray-matter, the assistant itself) would see a number, boolean or nothing.
 */
import { onFirstUse } from '../core/on-first-use';
import { isScalar, parseDocument } from './yaml-lazy';

const CORE_NON_STRING =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** Characters that may start a plain scalar without any YAML indicator meaning. */
const SAFE_FIRST = onFirstUse(() => /^[\p{L}\p{N}_./(+$^=]/u);
/** Anything YAML treats as a break, control or special char is escaped instead. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters (to escape them) is the point
const UNSAFE_ANYWHERE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]/u;

function looksPlainSafe(value: string): boolean {
  if (value === '' || value.trim() !== value || value.length > 1024) return false;
  if (!SAFE_FIRST().test(value) || CORE_NON_STRING.test(value)) return false;
  return !UNSAFE_ANYWHERE.test(value) && !/: |\s#|:$|\t/.test(value);
}

/** Confirms with the real parser, so an oversight in the rules above costs quotes, not data. */
function parsesBackPlain(value: string): boolean {
  const doc = parseDocument(`k: ${value}\n`, { prettyErrors: false });
  if (doc.errors.length > 0 || doc.warnings.length > 0) return false;
  const node = doc.get('k', true);
  return isScalar(node) && node.type === 'PLAIN' && node.source === value && typeof node.value === 'string';
}

const ESCAPES = new Map<string, string>([
  ['\\', '\\\\'],
  ['"', '\\"'],
  ['\n', '\\n'],
  ['\t', '\\t'],
  ['\r', '\\r'],
  ['\0', '\\0'],
  ['\u0085', '\\N'],
  ['\u2028', '\\L'],
  ['\u2029', '\\P'],
]);

function hex4(code: number): string {
  return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Double-quoted form; lone surrogates become `\uD800` escapes so the bytes stay valid UTF-8. */
export function doubleQuote(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] ?? '';
    const code = ch.charCodeAt(0);
    const escaped = ESCAPES.get(ch);
    if (escaped !== undefined) out += escaped;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const low = value.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) out += ch + value[++i];
      else out += hex4(code);
    } else if ((code >= 0xdc00 && code <= 0xdfff) || code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += hex4(code);
    else if (code === 0xfeff || code === 0xfffe || code === 0xffff) out += hex4(code);
    else out += ch;
  }
  return `${out}"`;
}

export function encodeScalar(value: string): string {
  return looksPlainSafe(value) && parsesBackPlain(value) ? value : doubleQuote(value);
}
