import { describe, expect, it } from 'vitest';
import { OWNER, SECRET_CASES } from './fixtures/secrets/cases';
import { maskEmail, maskHomePath, maskIpv4, maskIpv6, maskToken, maskUrlCredentials } from './mask';
import { secretCheck } from './secrets';

/** Every 8-character slice of `secret` after its public prefix. */
function slices(secret: string, prefix = ''): string[] {
  const rest = secret.slice(prefix.length);
  const out: string[] = [];
  for (let i = 0; i + 8 <= rest.length; i++) out.push(rest.slice(i, i + 8));
  return out;
}

describe('finding messages never carry the secret', () => {
  it.each(SECRET_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const messages = secretCheck(Buffer.from(c.text), OWNER).findings.map((f) => f.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) {
      expect(message).not.toContain(c.secret);
      for (const slice of slices(c.secret, c.prefix)) expect(message).not.toContain(slice);
    }
  });

  it('has a leak check for every fixture (the slice test is not vacuous for long secrets)', () => {
    const long = SECRET_CASES.filter((c) => c.secret.length - (c.prefix ?? '').length >= 8);
    expect(long.length).toBeGreaterThan(30);
  });
});

describe('mask helpers', () => {
  it('keeps only the known prefix and the length of a token', () => {
    expect(maskToken(`ghp_${'a'.repeat(36)}`, 'ghp_')).toBe('ghp_…(40 chars)');
  });

  it('counts code points, not UTF-16 units', () => {
    expect(maskToken('sk-😀😀', 'sk-')).toBe('sk-…(5 chars)');
  });

  it('shows one character each side of an e-mail', () => {
    expect(maskEmail('john@example.com')).toBe('j…@e…(16 chars)');
  });

  it('shows the private range, never the host part', () => {
    expect(maskIpv4([10, 1, 2, 3])).toBe('10.x.x.x');
    expect(maskIpv4([172, 20, 2, 3])).toBe('172.x.x.x');
    expect(maskIpv4([192, 168, 2, 3])).toBe('192.168.x.x');
    expect(maskIpv6('FD12:3456::1')).toBe('fd…(12 chars)');
  });

  it('never names the other user', () => {
    expect(maskHomePath('linux')).toBe('/home/<other user>/');
    expect(maskHomePath('macos')).toBe('/Users/<other user>/');
    expect(maskHomePath('windows')).toBe('C:\\Users\\<other user>\\');
  });

  it('keeps only the scheme of a URL with credentials', () => {
    expect(maskUrlCredentials('postgres://a:b@c.d/e')).toBe('postgres://…:…@…(20 chars)');
  });
});
