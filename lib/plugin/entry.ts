/** What the three plugin hook entries share: where memtrust lives, and how a hook ends. */
import path from 'node:path';

/** The bundles live in <plugin>/dist/hooks/: the plugin root is two folders up (as the launcher sets it). */
export function pluginEnv(): void {
  process.env.MEMTRUST_PROJECT_DIR ||= path.resolve(__dirname, '..', '..');
  // process.stdout is not touched here: lib/cli/io.ts makes it on first use, EPIPE handled there.
}

export function settle(run: Promise<number>): void {
  run.then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`memtrust: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
