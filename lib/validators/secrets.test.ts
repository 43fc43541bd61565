import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OWNER, SECRET_CASES } from './fixtures/secrets/cases';
import { secretCheck } from './secrets';
import type { OwnerIdentity } from './types';

const check = (text: string, owner: OwnerIdentity = OWNER) => secretCheck(Buffer.from(text), owner);
const codes = (text: string, owner?: OwnerIdentity) => check(text, owner).findings.map((f) => f.code);
const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`./fixtures/secrets/${name}`, import.meta.url)));

describe('secretCheck: every category is found', () => {
  it.each(SECRET_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const v = check(c.text);
    expect(v).toMatchObject({ check: 'secret', exit: 1, label: 'SECRET-DETECTED' });
    expect(v.findings.map((f) => f.code)).toEqual([c.code]);
    expect(v.findings[0]).toMatchObject({ check: 'secret', label: 'SECRET-DETECTED', line: 1 });
  });
});

const r = (unit: string, n: number) => unit.repeat(n);

/** Look-alikes: each must leave the file CLEAN. */
const CLEAN: Array<[string, string]> = [
  ['sk-learn', 'pip install sk-learn scikit-learn'],
  ['sk- with 19 characters', `sk-${r('a', 19)}`],
  ['sk-proj- with 19 characters', `sk-proj-${r('a', 19)}`],
  ['sk- inside a word', `task-${r('a', 30)}`],
  ['ghp_short', 'branch ghp_short'],
  ['ghp_ with 19 characters', `ghp_${r('a', 19)}`],
  ['ghp_ inside a word', `xghp_${r('a', 30)}`],
  ['github_pat_ with 19 characters', `github_pat_${r('a', 19)}`],
  ['AKIA with 15 characters', `AKIA${r('A', 15)}`],
  ['AKIA with 17 characters', `AKIA${r('A', 17)}`],
  ['AKIA lower-case tail', `AKIA${r('a', 16)}`],
  ['BEGIN CERTIFICATE', '-----BEGIN CERTIFICATE-----\nMIIC'],
  ['BEGIN PUBLIC KEY', '-----BEGIN PUBLIC KEY-----'],
  ['BEGIN RSA PUBLIC KEY', '-----BEGIN RSA PUBLIC KEY-----'],
  ['PRIVATE KEY in prose', 'never paste a PRIVATE KEY here'],
  ['docker digest', `image@sha256:${r('0123456789abcdef', 4)}`],
  ['SHA256: with 42 characters', `SHA256:${r('a', 42)}`],
  ['SHA256: hex digest (64)', `SHA256:${r('0123456789abcdef', 4)}`],
  ['Slack prefix alone', 'tokens start with xoxb- or xoxp-'],
  ['glpat- short', 'glpat-short'],
  ['AIza with 34 characters', `AIza${r('a', 34)} end`],
  ['Stripe test key', `sk_test_${r('a', 24)}`],
  ['Stripe prefix alone', 'live keys start with sk_live_'],
  ['JWT header without dots', 'eyJhbGciOiJIUzI1NiJ9'],
  ['URL with user only', 'https://alice@example.com/path'],
  ['URL with port, no credentials', 'http://localhost:3000/a:b'],
  [
    'URL with placeholder password',
    'https://oauth2:${GITLAB_TOKEN}@gitlab.example.com and https://u:$TOKEN@h.example.com',
  ],
  ['URL with <password> and ***', 'postgres://user:<password>@db.example.com postgres://user:***@db.example.com'],
  ['three octets', 'macOS 10.15.7'],
  ['110.0.0.1 is public', 'host 110.0.0.1'],
  ['172.32.0.1 is public', 'host 172.32.0.1'],
  ['172.15.0.1 is public', 'host 172.15.0.1'],
  ['192.169.1.1 is public', 'host 192.169.1.1'],
  ['10.0.0.256 is not an address', 'host 10.0.0.256'],
  ['five dotted numbers', 'version 10.0.0.1.5 and 1.10.0.0.1'],
  ['IPv4 glued to a word', 'v10.0.0.1'],
  ['ULA prefix only', 'the ULA range fc00::/7 and fd00::'],
  ['link-local IPv6', 'fe80::1'],
  ['hex pair', 'hash fcde:abcd'],
  ['git SSH remote', 'git@github.com:org/repo.git'],
  ['@2x asset', 'icon@2x.png logo@3x.jpg hero@1.5x.webp'],
  ['asset variant', 'logo@dark.svg'],
  ['package versions', 'react@19.3.1 @types/node@20'],
  ['host-less', 'user@localhost'],
  ['decorator', '@property def x'],
  ['owner e-mail, other case', 'owner.person@EXAMPLE.ORG'],
  ['owner no-reply', 'ownerhub@users.noreply.github.com'],
  ['owner no-reply with id', '12345+OwnerHub@users.noreply.github.com'],
  ['owner home (Linux)', '/home/owner/src'],
  ['owner home (macOS, other case)', '/Users/Owner/'],
  ['owner home (Windows)', 'C:\\Users\\owner\\Desktop'],
  ['placeholder home', '/home/user/ and /Users/USERNAME/ and /Users/Shared/ and /home/linuxbrew/.linuxbrew'],
  ['$HOME and ~', '$HOME/x ~/x /home/$USER/x'],
  ['home/ inside a relative path', 'src/home/page.tsx and https://example.com/home/about'],
  ['redacted token', `<redacted>ghp_${r('a', 36)}</redacted>`],
  ['redacted, upper-case tag', `<REDACTED>alice@example.com</REDACTED>`],
  ['redacted part of a line', `ip <redacted>10.0.0.1</redacted> then ok`],
  ['redacted over several lines', `a <redacted>alice@example.com\n/home/alice/\nghp_${r('a', 36)}</redacted> b`],
  ['empty file', ''],
];

describe('secretCheck: look-alikes stay clean', () => {
  it.each(CLEAN)('%s', (_name, text) => {
    expect(check(text)).toEqual({ check: 'secret', exit: 0, label: 'CLEAN', findings: [] });
  });
});

describe('secretCheck: every match on every line', () => {
  it('reports several matches on one line, in order', () => {
    const v = check(`a ghp_${r('a', 36)} b alice@example.com c 10.0.0.1 d ghp_${r('b', 36)}`);
    expect(v.findings.map((f) => [f.code, f.line])).toEqual([
      ['secret.github-token', 1],
      ['secret.email', 1],
      ['secret.private-ip', 1],
      ['secret.github-token', 1],
    ]);
  });

  it('reports matches on several lines with their line numbers, frontmatter included', () => {
    const text = `---\nname: x\ndescription: mail alice@example.com\n---\n\nbody 10.1.1.1\r\n\r\n/home/alice/\n`;
    expect(check(text).findings.map((f) => [f.code, f.line])).toEqual([
      ['secret.email', 3],
      ['secret.private-ip', 6],
      ['secret.home-path', 8],
    ]);
  });

  it('reports a token used as a URL user once, as the token', () => {
    expect(codes(`https://ghp_${r('a', 36)}@github.com/org/repo`)).toEqual(['secret.github-token']);
  });

  it('reports URL credentials once, not also as an e-mail', () => {
    expect(codes('https://bob:Secr3tPw@mail.example.com/')).toEqual(['secret.url-credentials']);
  });

  it('does not let an unclosed <redacted> hide anything', () => {
    expect(codes('<redacted> alice@example.com')).toEqual(['secret.email']);
  });

  it('flags an address whose owner identity is not set', () => {
    expect(codes('owner.person@example.org /home/owner/', { emails: [] })).toEqual([
      'secret.email',
      'secret.home-path',
    ]);
  });

  it('still reads a file with invalid UTF-8 around a secret', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(' alice@example.com '),
      Buffer.from([0xe2, 0x82]),
    ]);
    expect(secretCheck(bytes, OWNER).findings.map((f) => f.code)).toEqual(['secret.email']);
  });
});

describe('secretCheck: fixture files', () => {
  it('leaky.md: every secret, with its line', () => {
    const v = secretCheck(fixture('leaky.md'), OWNER);
    expect(v.exit).toBe(1);
    expect(v.findings.map((f) => `${f.line}:${f.code}`)).toEqual([
      '3:secret.email',
      '6:secret.private-ip',
      '6:secret.private-ip',
      '7:secret.email',
      '7:secret.email',
      '7:secret.private-ip',
      '7:secret.private-ip',
      '8:secret.home-path',
      '8:secret.home-path',
      '9:secret.url-credentials',
    ]);
  });

  it('clean-lookalikes.md: CLEAN', () => {
    expect(secretCheck(fixture('clean-lookalikes.md'), OWNER).findings).toEqual([]);
  });
});

describe('secretCheck: size cap', () => {
  it('does not scan a file over 1 MiB and says it is not known to be clean', () => {
    const v = secretCheck(Buffer.alloc(1024 * 1024 + 1, 0x61), OWNER);
    expect(v).toMatchObject({ exit: 1, label: 'SECRET-DETECTED' });
    expect(v.findings).toEqual([
      {
        check: 'secret',
        class: 'credential',
        code: 'secret.too-large',
        label: 'SECRET-DETECTED',
        message: 'file too large to scan (1048577 bytes, limit 1 MiB): not known to be clean',
      },
    ]);
  });

  it('scans a file of exactly 1 MiB', () => {
    expect(secretCheck(Buffer.alloc(1024 * 1024, 0x61), OWNER).exit).toBe(0);
  });
});
