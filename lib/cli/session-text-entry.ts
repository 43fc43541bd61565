/**
 * The launcher's first bundle for `memtrust context --format hook` (lib/cli/memtrust.cjs): the kept
 * session text when nothing it depends on changed, else the recorder for the run of the context
 * bundle that follows (lib/service/session/text-cache.ts; docs/session-context.md, "The kept
 * text"). Small on purpose: an unchanged project's session start loads only this.
 */
import { hookIo } from './io';
import { startHook } from '../service/session/text-cache';

export function startContextHook(argv: readonly string[]): Promise<{ served: boolean }> {
  return startHook('cli', argv, (s) => hookIo.out(s));
}
