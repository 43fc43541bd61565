/**
 * Rules of the architecture that a reviewer would otherwise have to remember:
 * one writer (only lib/service writes rows), a pure trust domain, and no `@/`
 * alias outside the web app (the CLI runs lib/ and db/ without Next's resolver).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.startsWith('test-')) out.push(p);
    }
  };
  walk(path.join(ROOT, dir));
  return out;
}

const rel = (p: string) => path.relative(ROOT, p);

describe('architecture', () => {
  it('only lib/service writes index rows (INSERT/UPDATE/DELETE, drizzle insert/update/delete)', () => {
    const offenders = [...sources('app'), ...sources('components'), ...sources('lib'), ...sources('db')]
      .filter((f) => !rel(f).startsWith('lib/service/'))
      // db/client.ts records applied migrations: bookkeeping, not index rows.
      .filter((f) => rel(f) !== 'db/client.ts')
      .filter((f) =>
        /\b(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b|\b(db|tx)\.(insert|update|delete)\(/.test(
          fs.readFileSync(f, 'utf8'),
        ),
      )
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('no file outside lib/service and the demo generator writes memory files', () => {
    const writes =
      /\b(writeFileSync|renameSync|linkSync|unlinkSync|rmSync|appendFileSync|openSync\([^)]*['"](w|a)x?['"])/;
    const allowed = [
      'lib/service/',
      'lib/demo/',
      'lib/core/settings.ts',
      'lib/server/',
      'lib/report/',
      'lib/cli/commands/report-cmd.ts',
      'lib/tools/',
      // The guard's V8 code cache, in the data directory; never a memory file (docs/install.md, "Figures").
      'lib/plugin/code-cache.ts',
    ];
    const offenders = [...sources('app'), ...sources('components'), ...sources('lib'), ...sources('db')]
      .filter((f) => !allowed.some((a) => rel(f).startsWith(a)))
      .filter((f) => writes.test(fs.readFileSync(f, 'utf8')))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('lib/ and db/ import each other by relative paths (the CLI has no @/ resolver)', () => {
    const offenders = [...sources('lib'), ...sources('db')]
      .filter((f) => /from '@\//.test(fs.readFileSync(f, 'utf8')))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it("'server-only' stays out of code the CLI imports", () => {
    const offenders = [...sources('lib'), ...sources('db')]
      .filter((f) => rel(f) !== 'lib/server/index.ts')
      .filter((f) => /^import\s+['"]server-only['"]/m.test(fs.readFileSync(f, 'utf8')))
      .map(rel);
    expect(offenders).toEqual([]);
  });
});
