import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanObject, setFields } from './scan';

function spans(s: string) {
  const r = scanObject(s);
  expect(r, s).not.toBeNull();
  return r!;
}

describe('scanObject', () => {
  it('finds every top-level member with exact key and value spans', () => {
    const s = ' {"a": 1, "b" :"x\\"y", "c":{"d":[1,{"e":"}"}]},"f":null , "g":[ "]", true ] } ';
    const r = spans(s);
    expect(r.members.map((m) => m.name)).toEqual(['a', 'b', 'c', 'f', 'g']);
    expect(r.members.map((m) => s.slice(m.valueStart, m.valueEnd))).toEqual([
      '1',
      '"x\\"y"',
      '{"d":[1,{"e":"}"}]}',
      'null',
      '[ "]", true ]',
    ]);
    expect(s[r.open]).toBe('{');
    expect(s[r.close]).toBe('}');
    for (const m of r.members) expect(JSON.parse(s.slice(m.valueStart, m.valueEnd))).toEqual(JSON.parse(s)[m.name]);
  });

  it('decodes escaped keys and handles backslash runs before a quote', () => {
    const s = '{"k\\u0041":"a\\\\","n":-1.5e3}';
    const r = spans(s);
    expect(r.members.map((m) => m.name)).toEqual(['kA', 'n']);
    expect(s.slice(r.members[0]!.valueStart, r.members[0]!.valueEnd)).toBe('"a\\\\"');
  });

  it('an empty object, and non-objects or trailing text are null', () => {
    expect(spans('{ }').members).toEqual([]);
    for (const bad of ['[1]', '"x"', '{"a":1} x', '{"a":1', '{"a" 1}', '{"a":}'])
      expect(scanObject(bad), bad).toBeNull();
  });
});

describe('setFields', () => {
  it('replaces only the named values, keeps key order, spacing and unknown keys', () => {
    const s = '{"id": "m1", "status": "active",  "x-extra": {"k": [1, 2]}, "confidence":"low"}';
    const out = setFields(s, spans(s), [
      { name: 'status', value: 'expired' },
      { name: 'confidence', value: 'high' },
    ]);
    expect(out).toBe('{"id": "m1", "status": "expired",  "x-extra": {"k": [1, 2]}, "confidence":"high"}');
  });

  it('appends new keys before the closing brace in the line style (compact and spaced)', () => {
    const a = '{"id":"m1","status":"active"}';
    expect(setFields(a, spans(a), [{ name: 'verifiedAt', value: '2026-11-22T12:00:00Z' }])).toBe(
      '{"id":"m1","status":"active","verifiedAt":"2026-11-22T12:00:00Z"}',
    );
    const b = '{"id": "m1", "status": "active"}';
    expect(
      setFields(b, spans(b), [
        { name: 'reviewNote', value: 'why "so"' },
        { name: 'verifiedAt', value: 'T' },
      ]),
    ).toBe('{"id": "m1", "status": "active", "reviewNote": "why \\"so\\"", "verifiedAt": "T"}');
    const c = '{ "id" : "m1" }  ';
    expect(setFields(c, spans(c), [{ name: 'status', value: 'active' }])).toBe(
      '{ "id" : "m1", "status" : "active" }  ',
    );
    const d = '{}';
    expect(
      setFields(d, spans(d), [
        { name: 'a', value: 1 },
        { name: 'b', value: 2 },
      ]),
    ).toBe('{"a":1,"b":2}');
  });

  it('refuses a key that appears twice', () => {
    const s = '{"status":"active","status":"expired"}';
    expect(() => setFields(s, spans(s), [{ name: 'status', value: 'active' }])).toThrow(/appears 2 times/);
  });
});

describe('property: any JSON object line, any spacing', () => {
  const ws = fc.constantFrom('', ' ', '  ', '\t', ' \t ');
  const key = fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__');
  const spaced = (v: unknown, w: string): string => {
    if (Array.isArray(v)) return `[${w}${v.map((x) => spaced(x, w)).join(`${w},${w}`)}${w}]`;
    if (v !== null && typeof v === 'object')
      return `{${w}${Object.entries(v)
        .map(([k, x]) => `${JSON.stringify(k)}${w}:${w}${spaced(x, w)}`)
        .join(`${w},${w}`)}${w}}`;
    return JSON.stringify(v);
  };

  it('spans give back every member value; setFields changes only the named one', () => {
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { minKeys: 1, maxKeys: 8 }),
        ws,
        fc.nat(),
        fc.jsonValue({ maxDepth: 2 }),
        (obj, w, pick, value) => {
          const line = `${w}${spaced(obj, w)}${w}`;
          const s = scanObject(line);
          expect(s).not.toBeNull();
          const names = Object.keys(obj);
          expect(s!.members.map((m) => m.name).sort()).toEqual([...names].sort());
          for (const m of s!.members)
            expect(JSON.parse(line.slice(m.valueStart, m.valueEnd))).toEqual(JSON.parse(JSON.stringify(obj[m.name])));
          const target = s!.members[pick % s!.members.length]!;
          const out = setFields(line, s!, [{ name: target.name, value }]);
          const parsed = JSON.parse(out) as Record<string, unknown>;
          expect(parsed[target.name]).toEqual(JSON.parse(JSON.stringify(value)));
          const o = scanObject(out)!;
          expect(o.members.map((m) => m.name)).toEqual(s!.members.map((m) => m.name));
          for (let i = 0; i < s!.members.length; i++) {
            if (s!.members[i]!.name === target.name) continue;
            expect(out.slice(o.members[i]!.keyStart, o.members[i]!.valueEnd)).toBe(
              line.slice(s!.members[i]!.keyStart, s!.members[i]!.valueEnd),
            );
          }
          expect(out.slice(0, target.valueStart)).toBe(line.slice(0, target.valueStart));
          expect(out.slice(out.length - (line.length - target.valueEnd))).toBe(line.slice(target.valueEnd));
        },
      ),
      { numRuns: 300 },
    );
  });
});
