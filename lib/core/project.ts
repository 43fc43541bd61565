import path from 'node:path';

/**
 * The directory memtrust is installed in (holds db/migrations and data/).
 * The CLI launcher and the start script set MEMTRUST_PROJECT_DIR because bundled
 * server code has no reliable __dirname; tests and `next start` run from it anyway.
 */
export function projectDir(): string {
  return process.env.MEMTRUST_PROJECT_DIR || /*turbopackIgnore: true*/ process.cwd();
}

export function projectPath(...parts: string[]): string {
  return path.join(/*turbopackIgnore: true*/ projectDir(), ...parts);
}
