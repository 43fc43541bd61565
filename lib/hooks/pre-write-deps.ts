/**
 * What the guard loads only for a write that lands inside a memory root (lib/cli/hook-pre.ts):
 * the content check, the owner's identity and the prior-state note. The plugin's guard ships
 * it as a bundle of its own, dist/hooks/pre-write-deps.cjs, so a write elsewhere — most of the
 * assistant's writes — never compiles the validators (docs/install.md, "Figures").
 */
export { judgeContent } from './pre-write';
export { ownerIdentity } from '../core/identity';
export { writePriorNote } from '../service/session/hook-prior';
