/** The tail of a transition, shared by the normal path and roll-forward recovery. */
import type { SourceInfo } from '../sources';
import type { ServiceContext } from './context';
import { clearIntent, type Intent } from './journal';
import { applyIndexEdit } from './index-edit';
import { appendAudit } from './audit-log';
import { commitToIndex } from './index-commit';
import { crashPoint } from './crash';

/** Index file edit, audit event, index rows, journal removal: shared with roll-forward recovery. */
export function finishIntent(ctx: ServiceContext, source: SourceInfo, intent: Intent, audited: boolean): void {
  if (intent.indexEdit) applyIndexEdit(source.root, intent.indexEdit, intent.op);
  crashPoint('after-index-file');
  if (!audited) appendAudit(source.root, ctx.machine, intent.event);
  crashPoint('after-audit');
  commitToIndex(ctx, source, intent);
  crashPoint('after-db');
  clearIntent(source.root, ctx.machine, intent.op);
}
