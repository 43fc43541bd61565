/**
 * Credential findings on a real folder of notes (docs/credentials.md, "Real stores"):
 * how many files secret-check flags and for what, with no value printed.
 *
 *   npx tsx bench/false-findings.ts DIR [DIR…] [--baseline REV]
 *
 * Walks every `*.md` file under each DIR (symlinks not followed) and runs the secret check
 * with an owner nobody is (no address or home folder is spared, as on a stranger's
 * machine). Prints, per DIR, the files read, the files with a credential finding, and the
 * findings counted by their message with the masked length left out. With --baseline, the
 * same for that commit's validators (bench/baseline.ts) beside today's. On a folder that holds no
 * credential, every finding is a false one: the look-alikes to write into the corpus next.
 * Exit 0 always.
 */
import fs from 'node:fs';
import path from 'node:path';
import { secretCheck } from '../lib/validators/secrets';
import type { OwnerIdentity, Verdict } from '../lib/validators/types';
import { checkCommit, loadValidators } from './baseline';
import { machineLine, table } from './common';

const args = process.argv.slice(2);
const at = args.indexOf('--baseline');
const baselineRev = at === -1 ? undefined : args[at + 1];
const dirs = at === -1 ? args : args.filter((_, i) => i !== at && i !== at + 1);
if (dirs.length === 0) {
  process.stderr.write('usage: npx tsx bench/false-findings.ts DIR [DIR…] [--baseline REV]\n');
  process.exit(64);
}

const owner: OwnerIdentity = { emails: ['nobody@example.invalid'], homeUser: 'nobody-at-all' };

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...markdownFiles(p));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(p);
  }
  return out.sort();
}

type Check = (b: Buffer, o: OwnerIdentity) => Verdict;

function tally(files: string[], check: Check): { flagged: number; kinds: Map<string, number> } {
  let flagged = 0;
  const kinds = new Map<string, number>();
  for (const f of files) {
    const credential = check(fs.readFileSync(f), owner).findings.filter((x) => x.class === 'credential');
    if (credential.length > 0) flagged++;
    for (const x of credential) {
      const kind = `${x.code}: ${x.message.replace(/\s*…\(\d+ chars\)/, '')}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
  }
  return { flagged, kinds };
}

async function main(): Promise<void> {
  console.log(`bench/false-findings.ts — ${machineLine()}`);
  const baseline = baselineRev ? (await loadValidators(checkCommit(baselineRev))).secret : undefined;
  for (const dir of dirs) {
    const files = markdownFiles(dir);
    const today = tally(files, secretCheck);
    const before = baseline ? tally(files, baseline) : undefined;
    console.log(`\n${dir}: ${files.length} Markdown files`);
    const names = [...new Set([...today.kinds.keys(), ...(before?.kinds.keys() ?? [])])].sort();
    const head = before ? ['finding', `${baselineRev}`, 'today'] : ['finding', 'today'];
    const rows = names.map((k) =>
      before
        ? [k, String(before.kinds.get(k) ?? 0), String(today.kinds.get(k) ?? 0)]
        : [k, String(today.kinds.get(k) ?? 0)],
    );
    rows.push(
      before
        ? ['files with a credential finding', String(before.flagged), String(today.flagged)]
        : ['files with a credential finding', String(today.flagged)],
    );
    console.log(table([head, ...rows]));
  }
}

void main();
