import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScalar, parseDocument } from 'yaml';
import { doubleQuote, encodeScalar } from './scalar-encode';
import { trickyString } from './test-arbitraries';

/** What any YAML 1.2 reader gets back for `k: <encoded>`. */
function readBack(encoded: string): unknown {
  const doc = parseDocument(`k: ${encoded}\n`, { prettyErrors: false });
  expect(doc.errors).toEqual([]);
  const node = doc.get('k', true);
  return isScalar(node) ? node.value : node;
}

describe('encodeScalar', () => {
  it('round-trips any string as a string, for a standard YAML reader too', () => {
    fc.assert(
      fc.property(fc.oneof(trickyString, fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (value) => {
        const encoded = encodeScalar(value);
        expect(encoded).not.toMatch(/[\r\n]/);
        expect(readBack(encoded)).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes characters YAML treats as breaks or forbids', () => {
    expect(doubleQuote('a\u2028b\u0085c\u0000\u007f\ud800')).toBe('"a\\Lb\\Nc\\0\\u007F\\uD800"');
  });
});
