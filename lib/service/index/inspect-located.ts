/**
 * A memory found on disk, inspected with the rules of its root's layout
 * (lib/validators/validation-rules.ts; docs/validators.md "By layout"): the one place the
 * write paths, the previews and the detail page join a located file to its rules.
 */
import type { ServiceContext } from '../context';
import { rulesForLayout } from '../../validators/validation-rules';
import { inspect, type Inspected } from './inspect';
import type { Located } from './resolve';

export function inspectLocated(
  ctx: ServiceContext,
  found: Located,
  bytes: Buffer,
  mtimeMs: number,
  conflict = false,
): Inspected {
  return inspect(
    bytes,
    { filename: found.filename, location: found.location, mtimeMs, rules: rulesForLayout(found.source.kind) },
    ctx.owner(),
    conflict,
  );
}
