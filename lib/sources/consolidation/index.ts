/**
 * The consolidation-records adapter (layout 5, docs/layouts.md): `*.memory.jsonl` files, one
 * record per line, read and written by memtrust (docs/consolidation-layout.md).
 */
import type { LayoutAdapter } from '../layout-adapter';
import { plan } from './plan';
import { changeToken, detect, read } from './read';
import { CONSOLIDATION_ACTIONS } from './types';

export const consolidationAdapter: LayoutAdapter = {
  layout: 'consolidation',
  label: 'consolidation records',
  detect,
  read,
  changeToken,
  actions: CONSOLIDATION_ACTIONS,
  plan,
};

export { changeToken, detect, plan, read };
export { applyLineEdits, lineAt } from './lines';
export * from './types';
