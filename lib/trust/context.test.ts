import { describe, expect, it } from 'vitest';
import { hookJson, INFERRED_REMINDER, reviewBanner, sessionContext, type ContextItem } from './context';
import type { MemoryFacts } from './facts';
import { archived, dayOffset, inferred, NOW, quarantined, verified } from './fixtures';
import { INDEX_WARNING } from './index-limits';

function item(name: string, facts: MemoryFacts, body = `Body of ${name}.`): ContextItem {
  return { filename: `${name}.md`, name, description: `about ${name}`, body, facts };
}

const ITEMS = [
  item('user_role', verified()),
  item('feedback_old', verified({ lastVerified: dayOffset(-120) })),
  item('project_new', inferred()), // observation running
  item('reference_due', inferred({ createdAt: '2026-04-01' })),
  item('project_due', inferred({ createdAt: undefined, trustLevel: undefined })), // mtime 2025 → over
  item('reference_bad', quarantined(), 'SECRET QUARANTINED BODY'),
  item('user_gone', archived(), 'ARCHIVED BODY'),
];

describe('sessionContext', () => {
  const { text, counts } = sessionContext(ITEMS, NOW, { problems: [{ path: '/r/memories/user_x.md', message: 'file too large' }] });

  it('counts what was loaded', () => {
    expect(counts).toEqual({ verified: 2, inferred: 3, excluded: 2, conflicts: 0, stale: 1, awaitingReview: 2 });
  });

  it('loads verified bodies silently', () => {
    expect(text).toContain('## user_role (user_role.md)\nBody of user_role.');
    const section = text.slice(text.indexOf('## user_role'), text.indexOf('## feedback_old'));
    expect(section).not.toContain('[inferred]');
  });

  it('marks inferred memories and reminds to confirm', () => {
    expect(text).toContain(`## project_new (project_new.md) [inferred]\n${INFERRED_REMINDER}\nBody of project_new.`);
    expect((text.match(/^## .*\[inferred\]$/gm) ?? []).length).toBe(3);
  });

  it('never includes quarantined or archived bodies', () => {
    expect(text).not.toContain('SECRET QUARANTINED BODY');
    expect(text).not.toContain('ARCHIVED BODY');
    expect(text).not.toContain('reference_bad');
  });

  it('prints the review prompt exactly once, with N = inferred past observation', () => {
    const line = 'You have 2 inferred memories awaiting review. Run /memory-review to promote or demote them.';
    expect(text.split(line).length - 1).toBe(1);
    expect(text.match(/awaiting review/g)).toHaveLength(1);
  });

  it('counts stale verified memories', () => {
    expect(text).toContain('1 verified memory is stale (last verified more than 90 days ago, or never); they still apply.');
  });

  it('lists problems at the end', () => {
    expect(text.trimEnd().endsWith('## Could not read\n- /r/memories/user_x.md: file too large')).toBe(true);
  });

  it('puts verified before inferred', () => {
    expect(text.indexOf('## feedback_old')).toBeLessThan(text.indexOf('## project_new'));
  });
});

describe('sessionContext edge cases', () => {
  it('no prompt while every inferred memory is still observed', () => {
    const { text } = sessionContext([item('project_new', inferred())], NOW);
    expect(text).not.toContain('awaiting review');
    expect(text).not.toContain('stale');
  });

  it('empty roots still produce a context', () => {
    expect(sessionContext([], NOW).text).toBe(
      '# Memories (memtrust)\n0 verified, 0 inferred loaded. Quarantined memories are never loaded.\n',
    );
  });

  it('a conflicted memory is not loaded and is named', () => {
    const { text, counts } = sessionContext([item('user_twin', verified({ conflict: true }), 'TWIN BODY')], NOW);
    expect(text).not.toContain('TWIN BODY');
    expect(text).toContain('## Not loaded (conflict)\n- user_twin.md: in both memories/ and quarantine/');
    expect(counts.conflicts).toBe(1);
  });

  it('a memory without trust-level is loaded as inferred, never silently', () => {
    const { text } = sessionContext([item('user_legacy', verified({ trustLevel: undefined }))], NOW);
    expect(text).toContain('## user_legacy (user_legacy.md) [inferred]');
  });

  it('names cannot forge extra lines', () => {
    const { text } = sessionContext([item('user_x', verified())].map((i) => ({ ...i, name: 'A\n## Fake\nB' })), NOW);
    expect(text).toContain('## A ## Fake B (user_x.md)');
  });

  it('includes an index file under its limits', () => {
    const index = Array.from({ length: 205 }, (_, i) => `- [M${i}](user_${i}.md)\n`).join('');
    const { text } = sessionContext([], NOW, { index });
    expect(text).toContain('## MEMORY.md (index)\n- [M0](user_0.md)');
    expect(text).toContain(INDEX_WARNING);
    expect(text).not.toContain('[M200]');
  });

  it('reviewBanner keeps the contract wording', () => {
    expect(reviewBanner(3)).toBe('You have 3 inferred memories awaiting review. Run /memory-review to promote or demote them.');
  });
});

describe('hookJson', () => {
  it('wraps the text as a SessionStart hook output', () => {
    const text = 'line "one"\nline two';
    const json = hookJson(text);
    expect(JSON.parse(json)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
    expect(json.includes('\n')).toBe(false);
  });
});
