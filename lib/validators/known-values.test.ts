/**
 * The pure half of value propagation (docs/credentials.md, "Value propagation"): tokens at
 * the boundaries a value has, the set by salted hash, and the secret check and the masks
 * finding known values (made-up values only).
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  credentialValue,
  entryOf,
  holdsKnownValue,
  type KnownEntry,
  knownValuesOf,
  normalValue,
  propagatable,
} from './known-values';
import { secretCandidates } from './secrets';
import { secretCheck } from './secrets';
import { maskValues } from './mask-inline';
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
