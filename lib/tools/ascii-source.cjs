// The hooks' bundles (lib/tools/build-hooks.mjs) and the CLI launcher's small entries
// (lib/cli/memtrust.cjs) made ASCII-only: esbuild escapes non-ASCII characters in strings and
// identifiers but leaves them in regular-expression literals and in `String.raw` templates,
// and the validators' regexes name Korean, Japanese, Chinese, Russian and Vietnamese words. One
// such character and Node reads the whole file as UTF-8 into a two-byte string: about 6 M
// instructions of every hook's start for the session text's 280 KiB (docs/performance.md,
// "The hooks"). Pure ASCII is copied as Latin-1.
'use strict';

/**
 * `code` with every non-ASCII character of its regex literals written as an escape with the
 * same meaning, and each `String.raw` template without substitutions that holds one replaced by
 * the string literal of its raw text (what String.raw returns). Found with TypeScript's parser,
 * so a `/` is never mistaken; null when TypeScript is not installed (an installed package:
 * the bundle stays as esbuild wrote it). Anything else that is not ASCII is left as it is.
 */
function asciiSource(code) {
  if (!/[^\t-~]/.test(code)) return code;
  let ts;
  try {
    ts = require('typescript');
  } catch {
    return null;
  }
  const file = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const edits = [];
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText(file);
      if (/[^\t-~]/.test(text)) edits.push([node.getStart(file), node.end, escapeRegex(text)]);
      return;
    }
    if (
      node.kind === ts.SyntaxKind.TaggedTemplateExpression &&
      node.template.kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral &&
      ts.isPropertyAccessExpression(node.tag) &&
      node.tag.expression.getText(file) === 'String' &&
      node.tag.name.text === 'raw'
    ) {
      const raw = node.template.rawText;
      if (raw !== undefined && /[^\t-~]/.test(raw)) {
        // Raw text is what String.raw returns (CRLF read as LF, as the template's own rule).
        edits.push([node.getStart(file), node.end, asciiString(raw.replace(/\r\n?/g, '\n'))]);
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = code;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end);
  return out;
}

/** A regex literal with its non-ASCII characters escaped: the same pattern, flags and meaning. */
function escapeRegex(literal) {
  const close = literal.lastIndexOf('/');
  const flags = literal.slice(close + 1);
  const unicode = flags.includes('u') || flags.includes('v');
  let body = '';
  const src = literal.slice(0, close + 1);
  for (let i = 0; i < src.length; ) {
    const cp = src.codePointAt(i);
    const ch = String.fromCodePoint(cp);
    if (cp < 0x80) {
      if (ch === '\\') {
        const next = src.codePointAt(i + 1);
        if (next !== undefined && next >= 0x80) {
          // An identity escape (`\é`, only valid without u): the character itself, escaped.
          if (unicode) throw new Error(`ascii-source: \\ before a non-ASCII character in a unicode regex: ${literal}`);
          body += escapeCodePoint(next, unicode);
          i += 1 + String.fromCodePoint(next).length;
          continue;
        }
        // Any other escape is copied as it is, its character with it.
        body += src.slice(i, i + 2);
        i += 2;
        continue;
      }
      body += ch;
      i += 1;
      continue;
    }
    body += escapeCodePoint(cp, unicode);
    i += ch.length;
  }
  return body + flags;
}

/** `\uXXXX`; beyond the BMP `\u{…}` with u, else its two surrogates (what the literal character is without u). */
function escapeCodePoint(cp, unicode) {
  const hex = (n) => `\\u${n.toString(16).padStart(4, '0')}`;
  if (cp <= 0xffff) return hex(cp);
  if (unicode) return `\\u{${cp.toString(16)}}`;
  const s = String.fromCodePoint(cp);
  return hex(s.charCodeAt(0)) + hex(s.charCodeAt(1));
}

/** A double-quoted JavaScript string literal of `s`, ASCII only. */
function asciiString(s) {
  return JSON.stringify(s).replace(/[^\t-~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

module.exports = { asciiSource };
