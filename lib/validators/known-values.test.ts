/**
 * The pure half of value propagation (docs/credentials.md, "Value propagation"): tokens at
 * the boundaries a value has, the set by salted hash, and the secret check and the masks
 * finding known values (made-up values only).
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  credentialValue,
  distinctiveLetters,
  entryOf,
  forEachToken,
  holdsKnownValue,
  type KnownEntry,
  knownValueCandidates,
  knownValuesOf,
  normalValue,
  propagatable,
} from './known-values';
import { secretCandidates } from './secrets';
import { secretCheck } from './secrets';
import { maskValues } from './mask-inline';
import { credentialValues } from './credential-values';
import type { OwnerIdentity } from './types';

const salt = crypto.createHash('sha256').update('test salt').digest();
const VALUE = 'Qv7-mirth-2048z';

function setOf(values: string[], id = 'src-1:reference_nas.md') {
  const entries = new Map<string, KnownEntry>();
  for (const v of values) {
    const e = entryOf(salt, v);
    entries.set(e.hash, { len: e.len, quick: e.quick, id });
  }
  return knownValuesOf(salt, entries);
}

const owner = (values: string[] = [VALUE]): OwnerIdentity => ({ emails: [], knownValues: setOf(values) });
const check = (text: string, o = owner()) => secretCheck(Buffer.from(text), o).findings;

describe('known values in a text', () => {
  it('finds a known value at every boundary a value has, and names the memory holding it', () => {
    for (const text of [
      `logs in with ${VALUE} each night`,
      `\`${VALUE}\``,
      `"${VALUE}"`,
      `(${VALUE})`,
      `| admin | ${VALUE} |`,
      `admin:${VALUE}`,
      `admin/${VALUE}`,
      `NAS_PASS=${VALUE}`,
      `**${VALUE}**`,
      `it is ${VALUE}.`,
      `it is ${VALUE}, then`,
      `비밀번호는「${VALUE}」`,
      `${VALUE}@nas.lan`,
    ]) {
      // A detector may name the value itself (`NAS_PASS=…`); without the set, nothing else would.
      const found = check(text).filter((f) => f.class === 'credential');
      expect(found, text).toHaveLength(1);
      const alone = check(text, { emails: [] }).filter((f) => f.class === 'credential');
      if (alone.length === 0) {
        expect(found[0]!.code, text).toBe('secret.known-value');
        expect(found[0]!.message).toBe('value found as a credential in src-1:reference_nas.md (15 chars)');
      }
      expect(maskValues(text, owner()).text, text).not.toContain(VALUE);
    }
  });

  it('an exact value only: longer, shorter or changed tokens are not it', () => {
    for (const text of [`${VALUE}x`, `x${VALUE}`, VALUE.slice(1), VALUE.toUpperCase(), `Qv7-mirth-2049z`]) {
      expect(
        check(text).filter((f) => f.code === 'secret.known-value'),
        text,
      ).toEqual([]);
    }
  });

  it('inside a longer token, a value at boundaries that are neither letters nor digits is found and masked', () => {
    for (const text of [
      `backup at /srv/keys/${VALUE}.txt`,
      `payload = encode(b"${VALUE}\\x00" * 4)`,
      `https://files.example.net/share/${VALUE}/index.html`,
      `the old one (${VALUE}-old) still works`,
      `key file \`assets/${VALUE}.txt\` on the CDN`,
    ]) {
      expect(
        check(text).filter((f) => f.code === 'secret.known-value'),
        text,
      ).toHaveLength(1);
      expect(maskValues(text, owner()).text, text).not.toContain(VALUE);
    }
    // Glued to a letter or a digit it is another token (`${VALUE}x` above).
    expect(check(`/srv/a${VALUE}/b`).filter((f) => f.code === 'secret.known-value')).toEqual([]);
  });

  it('glued to Chinese, Japanese or Korean text — written without spaces — a value is found and masked', () => {
    for (const text of [
      `张三: ${VALUE}这个是我完整复制下来的`,
      `新密码${VALUE}，请保存`,
      `パスワードは${VALUE}です`,
      `비밀번호는${VALUE}입니다`,
    ]) {
      expect(
        check(text).filter((f) => f.class === 'credential'),
        text,
      ).toHaveLength(1);
      expect(maskValues(text, owner()).text, text).not.toContain(VALUE);
    }
    // A letter or digit of a script written with spaces still glues (\`${VALUE}x\` above).
    expect(check(`${VALUE}ж`).filter((f) => f.code === 'secret.known-value')).toEqual([]);
  });

  it('a distinctive letters-only value is found alone and inside paths, an ordinary word never', () => {
    const letters = owner(['BlueHarbor', 'zmvrtkqlpwxbsndh']);
    for (const text of [
      'the PBX answers to BlueHarbor now',
      'saved under /etc/pbx/BlueHarbor.conf',
      'mail relay uses zmvrtkqlpwxbsndh',
    ]) {
      expect(
        check(text, letters).filter((f) => f.code === 'secret.known-value'),
        text,
      ).toHaveLength(1);
    }
    for (const text of ['BlueHarbors everywhere', 'the BlueHarbor2 unit', 'blueharbor in lower case']) {
      expect(
        check(text, letters).filter((f) => f.code === 'secret.known-value'),
        text,
      ).toEqual([]);
    }
  });

  it('words joined set as a token are masked where they stand again in the same text, and never propagated', () => {
    const text =
      '- ran `RELAY_TOKEN=swap-me-later node relay.js`\n- token handed out: `swap-me-later`\n- not swap-me-later-x';
    const known = check(text, { emails: [] }).filter((f) => f.code === 'secret.known-value');
    expect(known.map((f) => f.line)).toEqual([2]);
    expect(maskValues(text, { emails: [] }).text.split('\n')[1]).not.toContain('swap-me-later');
    expect(propagatable('swap-me-later')).toBe(false);
  });

  it('a value inside <redacted> is no finding; with no set, nothing is found', () => {
    expect(check(`<redacted>${VALUE}</redacted>`)).toEqual([]);
    expect(check(`with ${VALUE} each night`, { emails: [] })).toEqual([]);
  });

  it('a value found by its label on one line is a finding where it stands bare on another line', () => {
    const text = `password: ${VALUE}\n\nThe job uses ${VALUE} too.\n`;
    const found = check(text, { emails: [] });
    expect(found.map((f) => [f.code, f.line])).toEqual([
      ['secret.password', 1],
      ['secret.known-value', 3],
    ]);
    expect(found[1]!.message).toBe('value found as a credential on line 1 of this file (15 chars)');
    const masked = maskValues(text, { emails: [] }).text;
    expect(masked).not.toContain(VALUE);
    expect(masked).toContain('The job uses ⟦credential #2 · 15 chars⟧ too.');
  });

  it('a bare key (a run beside a key word) of hex or one case is masked again in its own text but not propagated', () => {
    const id = 'ou_5d1e0c9b8a7f6e5d4c3b2a1908f7e6d5';
    const text = `the api key works now ${id}\n\nlater: ${id} again\n`;
    expect(check(text, { emails: [] }).map((f) => [f.code, f.line])).toEqual([
      ['secret.bare-key', 1],
      ['secret.known-value', 3],
    ]);
    expect(maskValues(text, { emails: [] }).text).not.toContain(id);
    expect(credentialValue(text, secretCandidates(text, { emails: [] })[0]!)).toBeNull();
    // Neither occurrence enters the set other files are checked against.
    expect(credentialValues(text, { emails: [] }).map((v) => [v.own, v.propagated])).toEqual([
      [true, false],
      [false, false],
    ]);
    // Upper- and lower-case letters and digits (a generated key): repeated where it stands again.
    const key = 'Zq8mXw2Lp5Vt9Rk3Nb7Hc1Jf4Gs6Da0Ye2';
    const again = `the api key works now ${key}\n\nlater: ${key} again\n`;
    expect(check(again, { emails: [] }).map((f) => [f.code, f.line])).toEqual([
      ['secret.bare-key', 1],
      ['secret.known-value', 3],
    ]);
    // Given by its label, the hex id propagates as any labelled value does.
    expect(check(`api_key: ${id}\n\nlater: ${id} again\n`, { emails: [] }).map((f) => f.code)).toEqual([
      'secret.password',
      'secret.known-value',
    ]);
  });

  it('only values of 6+ characters, without whitespace, with a digit or symbol beside - and _ (or distinctive letters) are propagated', () => {
    expect(propagatable(VALUE)).toBe(true);
    expect(propagatable('ab1')).toBe(false);
    expect(propagatable('hunterhunter')).toBe(false);
    expect(propagatable('password')).toBe(false);
    // Letters alone, when no ordinary word: a capital inside (a vendor's default) or generated letters.
    expect(propagatable('BlueHarbor')).toBe(true);
    expect(propagatable('zmvrtkqlpwxbsndh')).toBe(true);
    expect(propagatable('Harbor')).toBe(false);
    expect(propagatable('abcd efgh 1234')).toBe(false);
    expect(propagatable('s3cr3t')).toBe(true);
    // Words and slugs, with or without punctuation around them, are ordinary text.
    expect(propagatable('correct-horse_battery')).toBe(false);
    expect(propagatable('**password:**')).toBe(false);
    expect(propagatable('horse!battery')).toBe(true);
  });

  it('holdsKnownValue says whether a stored text holds one, by hash', () => {
    const set = setOf([VALUE]);
    expect(holdsKnownValue(`the job uses ${VALUE}.`, set)).toBe(true);
    expect(holdsKnownValue('the job uses Qv7-mirth-2049z.', set)).toBe(false);
    expect(holdsKnownValue(`the job uses ${VALUE}.`, setOf([]))).toBe(false);
  });

  it('a value is stored and matched in one normal form: quotes, backticks, spaces and punctuation around it do not count', () => {
    expect(normalValue(` "${VALUE}" `)).toBe(VALUE);
    expect(normalValue(`\`${VALUE}\`.`)).toBe(VALUE);
    expect(normalValue(`**${VALUE}**!`)).toBe(VALUE);
    expect(normalValue(`«${VALUE}»`)).toBe(VALUE);
    expect(normalValue(VALUE)).toBe(VALUE);
    // Both sides: the set is made from what the detectors found in file A, in several writings…
    const files = [
      `password: "${VALUE}"`,
      `password: \`${VALUE}\``,
      `- **password:** ${VALUE}.`,
      `password = '${VALUE}' `,
      `Passwort: „${VALUE}“`,
    ];
    for (const a of files) {
      const own = secretCandidates(a, { emails: [] }).filter((c) => c.code !== 'secret.known-value');
      const values = own.map((c) => credentialValue(a, c)).filter((v): v is string => v !== null);
      expect(values, a).toEqual([VALUE]);
      // …and found in file B however it is written there.
      const o = owner(values);
      for (const b of [
        `uses \`${VALUE}\` nightly`,
        `uses "${VALUE}"`,
        `uses '${VALUE}'`,
        `uses  ${VALUE}  nightly`,
        `uses ${VALUE}.`,
        `uses ${VALUE}!`,
        `uses «${VALUE}»`,
        `uses „${VALUE}“`,
        `uses ${VALUE}…`,
        `使用『${VALUE}』`,
        `uses _${VALUE}_`,
      ]) {
        const found = check(b, o).filter((f) => f.code === 'secret.known-value');
        expect(found, `${a} → ${b}`).toHaveLength(1);
        expect(maskValues(b, o).text, b).not.toContain(VALUE);
      }
    }
  });

  it('a value stored without its closing punctuation is masked with it where it stands', () => {
    const text = 'password: Qv7mirth2048!';
    const [c] = secretCandidates(text, { emails: [] });
    const stored = credentialValue(text, c!);
    expect(stored).toBe('Qv7mirth2048');
    const o = owner([stored!]);
    for (const b of ['the job uses Qv7mirth2048! nightly', 'the job uses Qv7mirth2048 nightly']) {
      const masked = maskValues(b, o).text;
      expect(masked, b).not.toContain('Qv7mirth2048');
      expect(masked, b).not.toMatch(/⟧!/);
    }
  });
});

describe('the prefilters before the hash pass over nothing a value could be', () => {
  // Made-up texts of the shapes the tokens meet: words, CamelCase and long letter runs, digits,
  // separators, paths, emphasis, code spans, CJK stops. Seeded, so a failure repeats.
  const PARTS = [
    'note',
    'the',
    'password',
    'BlueHarbor',
    'qwrtzplkmnbvcxs',
    'bcdfghjklmnp',
    'abcdefghijklmnopq',
    'x9',
    '2026-05-30',
    'v1.2.3',
    '/srv/keys/',
    'host:',
    'user@',
    'KEY=',
    '**',
    '`',
    '.',
    '!',
    '、',
    '-',
    '_',
    ' ',
    ' ',
    '\n',
    'Qv7-mirth-2048z',
    'aB3$kL9!pQ',
    'xYzAbCdEfGhIjKlM',
  ];
  function texts(n: number): string[] {
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      let t = '';
      // A space every six parts: a run keeps fewer boundaries than innerForms looks at (24).
      for (let k = 0; k < 60; k++) t += k % 6 === 5 ? ' ' : PARTS[next() % PARTS.length];
      out.push(t);
    }
    return out;
  }
  const visits = (text: string, lengths: Set<number>, letters?: Set<number>) => {
    const seen: string[] = [];
    forEachToken(
      text,
      lengths,
      (s, e) => {
        seen.push(`${s}-${e}`);
        return false;
      },
      letters,
    );
    return seen.sort();
  };

  it('the length prefilter hands over exactly the forms of every length that have a sought length', () => {
    const every = new Set(Array.from({ length: 200 }, (_, i) => i + 1));
    let compared = 0;
    for (const text of texts(80)) {
      const all = visits(text, every);
      for (const lengths of [new Set([15]), new Set([10, 16]), new Set([6, 7, 8, 9, 20, 40]), new Set([64])]) {
        const want = all.filter((v) => {
          const [s, e] = v.split('-').map(Number);
          return lengths.has(e! - s!);
        });
        expect(visits(text, lengths)).toEqual(want);
        compared += want.length;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('letter runs are those of the plain anchor (a capital after a small letter, or twelve letters) of a sought length', () => {
    // The definition, without the prefilter (docs/credentials.md, "Matching").
    const reference = (text: string, lengths: Set<number>) => {
      const seen: string[] = [];
      const re = /[a-z][A-Z]|[A-Za-z]{12}/g;
      const letter = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);
      const digit = (c: string | undefined) => c !== undefined && /[0-9]/.test(c);
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        let s = m.index;
        while (letter(text[s - 1])) s--;
        let e = m.index + m[0].length;
        while (letter(text[e])) e++;
        re.lastIndex = e;
        if (!lengths.has(e - s) || digit(text[s - 1]) || digit(text[e])) continue;
        if (e - s <= 64 && distinctiveLetters(text.slice(s, e))) seen.push(`${s}-${e}`);
      }
      return seen.sort();
    };
    let compared = 0;
    for (const text of texts(150)) {
      for (const letters of [new Set([10, 11, 12]), new Set([12, 15, 16]), new Set([6, 13, 17, 20])]) {
        const want = reference(text, letters);
        expect(visits(text, new Set(), letters)).toEqual(want);
        compared += want.length;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('a set widened by decoys of every length finds the same values: the prefilters only skip hashing', () => {
    const values = ['Qv7-mirth-2048z', 'aB3$kL9!pQ', 'xYzAbCdEfGhIjKlM', '2026-05-30'];
    const narrow = setOf(values);
    const entries = new Map(narrow.entries);
    for (let len = 6; len <= 64; len++) {
      const e = entryOf(salt, `${'z'.repeat(len - 1)}9`);
      entries.set(e.hash, { len: e.len, quick: e.quick, id: 'decoy' });
    }
    const wide = knownValuesOf(salt, entries);
    let found = 0;
    for (const text of texts(150)) {
      const a = knownValueCandidates(text, [], new Map(), narrow);
      expect(knownValueCandidates(text, [], new Map(), wide)).toEqual(a);
      found += a.length;
    }
    expect(found).toBeGreaterThan(100);
  });
});
