/**
 * The tail of a transition, shared by the normal path and roll-forward recovery
 * (docs/crash-safety.md, "A transition"): index file edit, audit event, index rows,
 * temp file removal, journal removal. Every step is idempotent, so recovery may
 * re-run the whole tail after an interruption anywhere in it.
 */
import path from 'node:path';
import { isFileSource, type SourceInfo } from '../../sources';
import type { ServiceContext } from '../context';
import { clearIntent, type Intent } from './journal';
import { applyIndexEdit } from '../claude/index-edit';
import { appendAudit } from '../audit/audit-log';
import { commitToIndex } from '../index/index-commit';
import { crashPoint } from './crash';
import { unlinkIfExists } from './fs-atomic';

export function finishIntent(ctx: ServiceContext, source: SourceInfo, intent: Intent, audited: boolean): void {
  if (intent.indexEdit) applyIndexEdit(source.root, intent.indexEdit, intent.op);
  crashPoint('after-index-file');
  if (!audited) for (const e of intent.events ?? [intent.event]) appendAudit(source.root, ctx.machine, e);
  crashPoint('after-audit');
  // A record store's files are not memories: its index is refreshed by the record batch (docs/records-write.md).
  // (`events` marks a record batch's change even when a crash left the store undetectable for a moment.)
  // Without an index (the plugin's hooks) the dashboard's next scan reads the file and the event.
  if (isFileSource(source) && !intent.events && !ctx.noIndex) commitToIndex(ctx, source, intent);
  crashPoint('after-db');
  // The temp file is a second name of the new copy until here: recovery uses it to
  // recognise the copy as ours (same inode) even after an editor changed its bytes.
  unlinkIfExists(path.join(source.root, intent.tmp));
  clearIntent(source.root, ctx.machine, intent.op);
}
