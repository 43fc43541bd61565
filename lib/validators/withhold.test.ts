import { describe, expect, it } from 'vitest';
import { maskBody, withholdSecret, WITHHELD } from './withhold';
import { maskSpans, maskText, MASK_PATTERN, unmaskedValue } from './mask-inline';

const owner = { emails: ['owner@example.com'], homeUser: 'owner' };
const token = ['ghp', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('_');

describe('withholding secrets from stored and shown text', () => {
  it('withholds flagged free text whole and keeps clean text', () => {
    expect(withholdSecret(`rotate ${token}`, owner)).toBe(WITHHELD);
    expect(withholdSecret('mail owner@example.com', owner)).toBe('mail owner@example.com');
    expect(withholdSecret(undefined, owner)).toBeUndefined();
  });

  it('masks values in place and keeps the rest of each line, and a private key through its END line', () => {
    const body = [
      'intro',
      `token ${token} rotated`,
      'middle',
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEowIBAAKCAQEAabc',
      'defghij',
      '-----END RSA PRIVATE KEY-----',
      'outro',
    ].join('\n');
    const { text, masked } = maskBody(body, owner);
    const out = text.split('\n');
    expect(masked).toBe(2);
    expect(out).toHaveLength(8); // line numbers still match the findings
    expect(out[0]).toBe('intro');
    expect(out[1]).toBe(`token ${maskText('credential', 1, token.length)} rotated`);
    expect(out[2]).toBe('middle');
    expect(out[3]).toMatch(/^⟦credential #2 · \d+ chars⟧$/);
    expect(out.slice(4, 7).every((l) => l === '')).toBe(true);
    expect(out[7]).toBe('outro');
    expect(text).not.toContain(token);
    expect(text).not.toContain('MIIEow');
  });

  it('keeps a Markdown table a table: only the password cell changes', () => {
    const body = [
      '| host | user | password |',
      '|---|---|---|',
      '| nas.lan | admin | `Tr1cky-Pa55` |',
      '| pi.lan | pi | `R4spberry!x` |',
    ].join('\n');
    const out = maskBody(body, owner).text.split('\n');
    expect(out[0]).toBe('| host | user | password |');
    expect(out[2]).toBe(`| nas.lan | admin | \`${maskText('credential', 1, 11)}\` |`);
    expect(out[3]).toBe(`| pi.lan | pi | \`${maskText('credential', 2, 11)}\` |`);
  });

  it('masks personal values with their own class, and a URL password but not its host', () => {
    const body = 'db at postgres://app:S3cr3tPass@db.lan:5432/app, ssh 10.1.2.3, mail dana@corp.example.net';
    const text = maskBody(body, owner).text;
    expect(text).toContain('postgres://app:⟦credential #1 · 10 chars⟧@db.lan');
    expect(text).toContain('ssh ⟦personal #2 · 8 chars⟧');
    expect(text).toContain('mail ⟦personal #3 · 21 chars⟧');
    expect([...text.matchAll(MASK_PATTERN)]).toHaveLength(3);
  });

  it('gives each mask back by its number, from the same text only', () => {
    const body = 'login `demo`/`demo123x` and pw `Zz9!zz9!`';
    expect(maskSpans(body, owner).map((s) => s.class)).toEqual(['credential', 'credential']);
    expect(unmaskedValue(body, owner, 1)).toBe('demo123x');
    expect(unmaskedValue(body, owner, 2)).toBe('Zz9!zz9!');
    expect(unmaskedValue(body, owner, 3)).toBeNull();
  });

  it('leaves clean text as it is', () => {
    expect(
      maskBody('the password is in the vault; see commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b', owner),
    ).toEqual({
      text: 'the password is in the vault; see commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b',
      masked: 0,
    });
  });
});
