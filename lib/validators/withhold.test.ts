import { describe, expect, it } from 'vitest';
import { redactBodyLines, withholdSecret, WITHHELD } from './withhold';
import { secretCheck } from './secrets';

const owner = { emails: ['owner@example.com'], homeUser: 'owner' };
const token = ['ghp', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('_');

describe('withholding secrets from stored and shown text', () => {
  it('withholds flagged free text whole and keeps clean text', () => {
    expect(withholdSecret(`rotate ${token}`, owner)).toBe(WITHHELD);
    expect(withholdSecret('mail owner@example.com', owner)).toBe('mail owner@example.com');
    expect(withholdSecret(undefined, owner)).toBeUndefined();
  });

  it('replaces exactly the lines with findings, and a private key through its END line', () => {
    const fm = '---\nname: n\n---\n';
    const body = ['intro', `token ${token}`, 'middle', '-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEAabc', 'defghij', '-----END RSA PRIVATE KEY-----', 'outro'].join('\n');
    const v = secretCheck(Buffer.from(fm + body), owner);
    const out = redactBodyLines(body, v.findings, 4).text.split('\n');
    expect(out[0]).toBe('intro');
    expect(out[1]).toMatch(/withheld/);
    expect(out[2]).toBe('middle');
    expect(out.slice(3, 7).every((l) => /withheld/.test(l))).toBe(true);
    expect(out[7]).toBe('outro');
    expect(out.join('\n')).not.toContain(token);
    expect(out.join('\n')).not.toContain('MIIEow');
  });
});
