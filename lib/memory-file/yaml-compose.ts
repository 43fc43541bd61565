/**
 * Runs the `yaml` parser over decoded frontmatter text with the guards the
 * library itself lacks: a nesting pre-scan, a cap on stray error tokens, one
 * document only, and no duplicate-key check inside the library (its check is
 * quadratic: 250 KiB of keys took 5 s; ours is a Set per map, see fm-walk.ts).
 */
import type { Document } from 'yaml';
import { yaml } from './yaml-lazy';
import { estimateDepth, MAX_NESTING_DEPTH } from './depth-guard';
import { fileLineOf, type LineIndex } from './lines';
import type { FmError } from './types';

/** Garbage such as `{}{}{}…` yields one top-level error token per pair, ~10 µs each to compose. */
const MAX_TOP_LEVEL_ERRORS = 50;

export type ComposeResult = { doc: Document.Parsed | null; errors: FmError[] };

function syntax(message: string, line: number): FmError {
  return { code: 'yaml-syntax', message: `YAML syntax error: ${message}`, line };
}

export function composeYaml(text: string, index: LineIndex): ComposeResult {
  if (estimateDepth(text) > MAX_NESTING_DEPTH) {
    return {
      doc: null,
      errors: [
        { code: 'nesting-too-deep', message: `frontmatter nesting too deep (limit ${MAX_NESTING_DEPTH})`, line: 2 },
      ],
    };
  }
  const errors: FmError[] = [];
  let strayErrors = 0;
  let documents = 0;
  const tokens = new (yaml().Parser)().parse(text);
  function* capped() {
    for (const token of tokens) {
      if (token.type === 'error' && ++strayErrors > MAX_TOP_LEVEL_ERRORS) {
        errors.push(syntax('too many errors, parsing stopped', fileLineOf(index, token.offset)));
        return;
      }
      if (token.type === 'document' && ++documents > 1) {
        errors.push(syntax('more than one YAML document in the frontmatter', fileLineOf(index, token.offset)));
        return;
      }
      yield token;
    }
  }
  let doc: Document.Parsed | null = null;
  try {
    const composer = new (yaml().Composer)({ uniqueKeys: false, prettyErrors: false });
    for (const d of composer.compose(capped(), true, text.length)) doc ??= d;
  } catch (error) {
    // Belt and braces behind the pre-scan: a RangeError here is a format error, not a crash.
    const message = error instanceof Error ? error.message : String(error);
    return { doc: null, errors: [syntax(message, 2)] };
  }
  // Errors found at end of input (an unclosed quote) belong to the last frontmatter line, not the delimiter.
  const last = Math.max(0, text.length - 1);
  const docErrors = (doc?.errors ?? []).map((e) =>
    syntax(e.message.split('\n')[0] ?? e.code, fileLineOf(index, Math.min(e.pos[0], last))),
  );
  return { doc, errors: [...docErrors, ...errors] };
}
