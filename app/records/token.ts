/** The record roots' combined change token: what the records pages render from and poll for. */
import 'server-only';
import type { ServiceContext } from '@/lib/service/context';

export function recordRootsToken(ctx: ServiceContext): string {
  return ctx.recordSources
    .map((s) => {
      try {
        return `${s.id}=${s.adapter.changeToken(s.root)}`;
      } catch {
        return `${s.id}=unreadable`;
      }
    })
    .join('|');
}
