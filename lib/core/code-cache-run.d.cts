import type vm from 'node:vm';

/** The global symbol a run that checked a memory file sets (code-cache-hint.ts). */
export declare const CHECKS_RAN: unique symbol;

/** Runs `file` through its code cache (code-cache-run.cjs); null: not compiled this way, require it. */
export declare function runWithCodeCache(
  file: string,
  cache: { path: string; checks: string },
  call: (wrapper: (...args: unknown[]) => void) => unknown,
  write: (cacheFile: string, script: vm.Script, checks: boolean) => void,
): { exports: unknown } | null;
