/**
 * `memtrust context`: what an assistant session would load (CONTRACT §4), read
 * straight from disk. Never throws: a SessionStart hook must not block a
 * session, so every problem becomes a line inside the context text.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from './context';
import { readFields } from './inspect';
import { sessionContext, type ContextItem, type ContextProblem, type SessionContext } from '../trust/context';
import { FILE_CAP_BYTES } from '../validators/types';
import { readIndex } from './claude-index';

export function buildSessionContext(ctx: ServiceContext): SessionContext {
  const items: ContextItem[] = [];
  const problems: ContextProblem[] = [];
  let index: string | undefined;
  for (const source of ctx.sources) {
    if (source.error) {
      problems.push({ path: source.root, message: source.error });
      continue;
    }
    let files;
    try {
      files = source.adapter.list(source.root);
    } catch (e) {
      problems.push({ path: source.root, message: `could not be listed: ${(e as Error).message}` });
      continue;
    }
    if (source.adapter.indexFile) index = (index ?? '') + (readIndex(source.root, source.adapter.indexFile) ?? '');
    for (const f of files) {
      if (f.location !== 'memories') continue;
      const abs = path.join(source.root, f.relPath);
      if (f.refused) {
        problems.push({ path: abs, message: f.refused });
        continue;
      }
      if (f.size > FILE_CAP_BYTES) {
        problems.push({ path: abs, message: `too large to load (${f.size} bytes)` });
        continue;
      }
      try {
        const bytes = fs.readFileSync(abs);
        const { fields, body } = readFields(bytes);
        items.push({
          filename: f.filename,
          name: fields.name ?? '',
          description: fields.description ?? '',
          body: body.toString('utf8'),
          facts: {
            filename: f.filename,
            location: f.location,
            trustLevel: fields['trust-level'],
            type: fields.type,
            createdAt: fields['created-at'],
            lastVerified: fields['last-verified'],
            quarantinedAt: fields['quarantined-at'],
            mtime: new Date(f.mtimeMs),
          },
        });
      } catch (e) {
        problems.push({ path: abs, message: `unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
      }
    }
  }
  items.sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
  return sessionContext(items, ctx.now(), { problems, index });
}
