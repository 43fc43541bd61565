import { describe, expect, it } from 'vitest';
import { title } from './title';

describe('title', () => {
  it('renders bold, italic, code and strikethrough as their text', () => {
    expect(title('**Always** run `npm ci` before *any* test, ~~never~~ `npm install`')).toBe(
      'Always run npm ci before any test, never npm install',
    );
    expect(title('Use __pnpm__ for the `web/` package')).toBe('Use pnpm for the web/ package');
  });

  it('leaves snake_case, lone asterisks and comparisons alone', () => {
    expect(title('The config_file_path key wins over MEMTRUST_ROOT')).toBe(
      'The config_file_path key wins over MEMTRUST_ROOT',
    );
    expect(title('Retry when a < b and 2 * 3 > 5')).toBe('Retry when a < b and 2 * 3 > 5');
  });

  it('keeps link and image text, drops the address', () => {
    expect(title('See [the runbook](https://example.com/runbook#deploy) and ![diagram](img/a.png)')).toBe(
      'See the runbook and diagram',
    );
    expect(title('Docs live at <https://example.com/docs>')).toBe('Docs live at https://example.com/docs');
    expect(title('Per [ADR 12][adr12], the cache is per user')).toBe('Per ADR 12, the cache is per user');
  });

  it('takes the first line with text: headings, quotes, list items and rules give their text', () => {
    expect(title('\n\n## Deploy checklist ##\n\nStep one')).toBe('Deploy checklist');
    expect(title('---\n> **Note:** the staging DB is shared')).toBe('Note: the staging DB is shared');
    expect(title('- [x] Migrated the `users` table\n- [ ] orders')).toBe('Migrated the users table');
    expect(title('1. First, pin Node 22')).toBe('First, pin Node 22');
    expect(title('| Service | Port |\n|---|---|')).toBe('Service · Port');
  });

  it('cuts a long paragraph at its first sentence, else at a word with an ellipsis', () => {
    const para =
      'The payments service retries webhooks three times with exponential backoff. After that the event lands in the dead-letter queue and someone has to replay it by hand.';
    expect(title(para)).toBe('The payments service retries webhooks three times with exponential backoff.');
    const run =
      'The payments service retries webhooks three times with exponential backoff and after that the event lands in the dead letter queue';
    const t = title(run);
    expect(t.endsWith('…')).toBe(true);
    expect(t.length).toBeLessThanOrEqual(101);
    expect(run.startsWith(t.slice(0, -1))).toBe(true);
    expect(run[t.length - 1]).toBe(' '); // cut at a word boundary
  });

  it('counts CJK as two columns and cuts text without spaces where it is', () => {
    const zh =
      '部署前必须先运行数据库迁移脚本并确认所有测试通过否则生产环境会出现不可预期的错误需要回滚整个版本并通知值班人员处理后续问题以及更新文档';
    const t = title(zh, 40);
    expect(t).toBe(`${zh.slice(0, 20)}…`);
    expect(title('部署前先运行迁移。然后再确认所有测试都通过了才可以合并到主分支上面去', 30)).toBe(
      '部署前先运行迁移。',
    );
  });

  it('reads notes in other languages: Korean words, Thai marks kept on their letters', () => {
    expect(title('배포 전에 **반드시** `db:migrate`를 실행한다')).toBe('배포 전에 반드시 db:migrate를 실행한다');
    const thai = 'ก่อนดีพลอยต้องรันไมเกรชันทุกครั้งและตรวจสอบว่าเทสต์ผ่านทั้งหมดแล้วจึงค่อยรวมเข้าสาขาหลัก';
    const t = title(thai, 15);
    expect(t.endsWith('…')).toBe(true);
    // The cut falls between letters: what is kept is a prefix whose next character is no combining mark.
    const kept = t.slice(0, -1);
    expect(thai.startsWith(kept)).toBe(true);
    expect(thai.slice(kept.length)).not.toMatch(/^[\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]/);
  });

  it('never splits a mask token and returns "" for no text', () => {
    const masked = `Token for staging is ${'x'.repeat(70)} ⟦credential #1 · 40 chars⟧ keep it`;
    const t = title(masked);
    expect(t).not.toMatch(/⟦[^⟧]*$/);
    expect(title('the key ⟦credential #1 · 40 chars⟧ rotates monthly')).toBe(
      'the key ⟦credential #1 · 40 chars⟧ rotates monthly',
    );
    expect(title('')).toBe('');
    expect(title(null)).toBe('');
    expect(title('\n  \n---\n')).toBe('');
  });
});
