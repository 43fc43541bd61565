/**
 * What a folder-level neighbourhood would add (docs/credentials.md, "Measured on real folders"):
 * a value a detector proposes from its context or a variable's name (8 characters or more) that
 * ANOTHER file of the same folder shows in an id's or a name's place (shownAsId, secrets.ts) would
 * be cleared, as it is when its own file shows it so. The check today reads each file alone; this
 * counts, per tune folder, the lines such a second set would clear, labelled (a found line lost)
 * or not (a false line removed). A measurement, not a rule: nothing here changes the check.
 *
 *   npx tsx bench/credentials-folder-ids.ts --tune-dir DIR[,DIR…] [--data /work/realdata] [--folders r01-r177]
 *
 * Prints each cleared line (folder/file:line, code, length; never the value) and the totals.
 * Exit 0 always; 64 on a bad argument.
 */
import fs from 'node:fs';
import path from 'node:path';
import { secretCandidates, shownAsId } from '../lib/validators/secrets';
import { blankRedacted } from '../lib/validators/secrets-redact';
import type { OwnerIdentity } from '../lib/validators/types';
import { flags } from './common';
import { foldDirs, readFolders, readLabels } from './real-credentials/folders';

const f = flags(process.argv.slice(2), { data: '/work/realdata', 'tune-dir': '', folders: '' });
const DIRS = (f['tune-dir'] ?? '')
  .split(',')
  .filter(Boolean)
  .map((d) => path.resolve(d));
const range = /^r(\d+)-r(\d+)$/.exec(f.folders ?? '');
if (f.folders && !range) {
  process.stderr.write(`--folders: expected a range like r01-r177, got ${JSON.stringify(f.folders)}\n`);
  process.exit(64);
}
const inRange = (id: string) =>
  !range || (Number(id.slice(1)) >= Number(range[1]) && Number(id.slice(1)) <= Number(range[2]));
const owner: OwnerIdentity = { emails: ['nobody@example.invalid'], homeUser: 'nobody-at-all' };
/** The codes withoutIdentifiers (secrets.ts) lets an id's place overrule, and login pairs. */
const WEAK = new Set([
  'secret.password',
  'secret.bare-key',
  'secret.table-credential',
  'secret.env-credential',
  'secret.login-pair',
]);

function markdown(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...markdown(p, base));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out.sort();
}

const labelled = new Set(
  readLabels()
    .filter((l) => l.kind === 'credential')
    .map((l) => `${l.folder}/${l.file}:${l.line}`),
);
let lost = 0;
let cleared = 0;
let looked = 0;
for (const folder of readFolders()) {
  if (folder.fold !== 'tune' || !inRange(folder.id)) continue;
  const dir = [...DIRS, ...foldDirs(folder.fold).map((d) => path.join(f.data!, d))]
    .map((d) => path.join(d, folder.id))
    .find((d) => fs.existsSync(d));
  if (dir === undefined) continue;
  const files = markdown(dir).map((rel) => ({
    rel,
    text: blankRedacted(fs.readFileSync(path.join(dir, rel), 'utf8')),
  }));
  for (const { rel, text } of files) {
    for (const c of secretCandidates(text, owner)) {
      if (!WEAK.has(c.code) || c.end - c.start < 8) continue;
      looked++;
      const v = text.slice(c.start, c.end);
      if (!files.some((o) => o.rel !== rel && o.text.includes(v) && shownAsId(o.text, v))) continue;
      const where = `${folder.id}/${rel}:${text.slice(0, c.start).split('\n').length}`;
      const isTrue = labelled.has(where);
      if (isTrue) lost++;
      else cleared++;
      console.log(`${where}  ${isTrue ? '[found line lost]' : '[false line cleared]'}  ${c.code} (${v.length} chars)`);
    }
  }
}
console.log(`\nweak candidates looked at: ${looked}; false lines cleared: ${cleared}; found lines lost: ${lost}`);
