/** Small hand-written memory files for e2e roots (dates relative to NOW = 2026-11-22). */
import fs from 'node:fs';
import path from 'node:path';

export function memory(fields: Record<string, string>, body: string): string {
  return `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n---\n\n${body}\n`;
}

const BODY =
  'Integration tests must hit a real database, not mocks.\n\n**Why:** mocked tests passed while a migration broke production.\n\n**How to apply:** use the docker database in every integration test.';

export function inferred(name: string, createdAt = '2026-11-01T09:00:00Z'): string {
  return memory(
    {
      name,
      description: `${name} description`,
      type: 'feedback',
      'source-machine': 'laptop',
      'created-at': createdAt,
      'trust-level': 'inferred',
    },
    BODY,
  );
}

export function verified(name: string, lastVerified = '2026-11-01'): string {
  return memory(
    {
      name,
      description: `${name} description`,
      type: 'feedback',
      'source-machine': 'laptop',
      'created-at': '2026-01-01T09:00:00Z',
      'trust-level': 'verified',
      'last-verified': lastVerified,
    },
    BODY,
  );
}

export function quarantined(name: string, body = BODY, at = '2026-11-10T09:00:00Z'): string {
  return memory(
    {
      name,
      description: `${name} description`,
      type: 'feedback',
      'source-machine': 'laptop',
      'created-at': '2026-01-01T09:00:00Z',
      'trust-level': 'quarantined',
      'last-verified': at.slice(0, 10),
      'quarantined-at': at,
      'quarantined-by': 'laptop',
      'quarantine-reason': 'looked wrong',
    },
    body,
  );
}

/** A token-shaped fake secret built at run time, so no secret-looking literal sits in the repository. */
export function fakeToken(): string {
  return 'ghp' + '_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
}

/** A root of `n` inferred notes (`project_note_<i>.md` in memories/) under `dir`; returns the root. */
export function notesRoot(dir: string, n: number): string {
  const root = path.join(dir, 'root');
  const mem = path.join(root, 'memories');
  fs.mkdirSync(mem, { recursive: true });
  for (let i = 0; i < n; i++)
    fs.writeFileSync(path.join(mem, `project_note_${i}.md`), inferred(`Note ${i}`, '2026-11-01T08:00:00Z'));
  return root;
}
