/** Drops every cached row so the next scan rebuilds the index from disk (audit files included). */
import type { ServiceContext } from '../context';

export function rebuildIndex(ctx: ServiceContext): void {
  ctx.handle.sqlite
    .transaction(() => {
      for (const t of ['findings', 'entries', 'audit_events', 'audit_cursors', 'sources', 'meta', 'index_findings'])
        ctx.handle.sqlite.prepare(`DELETE FROM ${t}`).run();
    })
    .immediate();
}
