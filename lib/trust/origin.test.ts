import { describe, expect, it } from 'vitest';
import { backfillPlan } from './backfill';
import { asksToRemember, isOutsideRead, normalisePath, originFlags, originPromoteBlock } from './origin';

const mem = '/home/dev/.claude/projects/-home-dev-shop/memory';
const cwd = '/home/dev/shop';

describe('originFlags', () => {
  it('a WebFetch before the write is untrusted-origin naming the tool and the URL', () => {
    const f = originFlags({
      reads: [{ tool: 'WebFetch', source: 'https://notes.example.net/deploy' }],
      userText: 'look at the deploy notes',
      cwd,
      memoryDir: mem,
    });
    expect(f.untrustedOrigin).toEqual({ tools: ['WebFetch'], sources: ['https://notes.example.net/deploy'] });
    expect(f.userRequested).toBe(false);
  });

  it('WebSearch, MCP tools and network commands are outside content; other shell commands are not', () => {
    const f = originFlags({
      reads: [
        { tool: 'WebSearch', source: 'best staging port' },
        { tool: 'mcp__tracker__get_issue', source: 'tracker get_issue' },
        { tool: 'Bash', source: 'curl -s https://x.example.org/a' },
        { tool: 'Bash', source: 'npm test' },
      ],
      userText: null,
      cwd,
      memoryDir: mem,
    });
    expect(f.untrustedOrigin?.tools).toEqual(['WebSearch', 'mcp__tracker__get_issue', 'Bash']);
    expect(f.untrustedOrigin?.sources).not.toContain('npm test');
  });

  it('a Read inside the project or the memory folder is not outside; one elsewhere is', () => {
    const inside = originFlags({
      reads: [
        { tool: 'Read', source: `${cwd}/src/app.ts`, cwd },
        { tool: 'Read', source: 'README.md', cwd },
        { tool: 'Read', source: `${mem}/MEMORY.md`, cwd },
      ],
      userText: null,
      cwd,
      memoryDir: mem,
    });
    expect(inside.untrustedOrigin).toBeNull();
    const outside = originFlags({
      reads: [{ tool: 'Read', source: `${cwd}/../other/notes.txt`, cwd }],
      userText: null,
      cwd,
      memoryDir: mem,
    });
    expect(outside.untrustedOrigin).toEqual({ tools: ['Read'], sources: [`${cwd}/../other/notes.txt`] });
    // A sibling whose name starts like the project is outside too.
    expect(isOutsideRead({ tool: 'Read', source: '/home/dev/shop-old/x' }, cwd, mem)).toBe(true);
  });

  it('nothing read: no flag', () => {
    expect(originFlags({ reads: [], userText: 'hi', cwd, memoryDir: mem }).untrustedOrigin).toBeNull();
  });
});

describe('asksToRemember', () => {
  it.each([
    'remember that the staging port is 8443',
    'Remember: we deploy on Fridays',
    'please save this to memory',
    'add it to your memory',
    "don't forget the VPN comes first",
    'souviens-toi que le port est 8443',
    "n'oublie pas la clé",
    'recuerda que el puerto es 8443',
    'merk dir den Port',
    '스테이징 포트는 8443이야, 기억해',
    'ステージングのポートを覚えて',
    '记住端口是8443',
    'จำไว้ว่าพอร์ตคือ 8443',
  ])('%s', (t) => expect(asksToRemember(t)).toBe(true));

  it.each([
    'what do you remember about staging?',
    'fix the tests',
    'I remembered wrong',
    'the remembrance day page',
    '',
  ])('not: %s', (t) => expect(asksToRemember(t)).toBe(false));
});

describe('originPromoteBlock', () => {
  const u = { tools: ['WebFetch'], sources: ['https://notes.example.net/deploy'] };
  it('refuses without the acknowledgement, naming the tool and the source', () => {
    const m = originPromoteBlock(u, false);
    expect(m).toMatch(/untrusted origin/);
    expect(m).toContain('WebFetch — https://notes.example.net/deploy');
    expect(m).toContain('--ack-origin');
  });
  it('lets it through with it, or when there is no flag', () => {
    expect(originPromoteBlock(u, true)).toBeNull();
    expect(originPromoteBlock(null, false)).toBeNull();
  });
});

describe('normalisePath', () => {
  it('folds dots and backslashes', () => {
    expect(normalisePath('/a/b/../c/./d/')).toBe('/a/c/d');
    expect(normalisePath('C:\\x\\..\\y')).toBe('C:/y');
    expect(normalisePath('/../a')).toBe('/a');
  });
});

describe('backfill of an untrusted-origin memory', () => {
  const f = {
    filename: 'deploy.md',
    location: 'memories' as const,
    type: 'user',
    mtime: new Date('2026-11-01T00:00:00Z'),
  };
  const now = new Date('2026-11-22T12:00:00Z');
  it('stays inferred where its type would make it verified, and says why', () => {
    const p = backfillPlan(f, now, 'box', { untrustedOrigin: 'WebFetch — https://notes.example.net/deploy' });
    expect(p).toMatchObject({ kind: 'apply', tier: 'inferred', basis: 'untrusted-origin' });
    expect(p.kind === 'apply' && p.reason).toContain('WebFetch — https://notes.example.net/deploy');
    expect(p.kind === 'apply' && p.set['last-verified']).toBeUndefined();
  });
  it('a verified override is refused with a note; without the flag the type decides', () => {
    const p = backfillPlan(f, now, 'box', { tier: 'verified', untrustedOrigin: 'WebSearch — x' });
    expect(p).toMatchObject({ kind: 'apply', tier: 'inferred' });
    expect(p.kind === 'apply' && p.notes.join(' ')).toMatch(/verified refused/);
    expect(backfillPlan(f, now, 'box')).toMatchObject({ kind: 'apply', tier: 'verified' });
  });
});
