import { mulberry32 } from '../demo';
import { applyIndexEdit, planIndexEdit } from './index-edit';
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
function run(k: number, n: number, verbose: boolean) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-'));
  const lines = ['# Index', '', ...Array.from({ length: n }, (_, i) => `- [m${i}](m${i}.md)`), '', 'notes'];
  const orig = lines.join('\n') + '\n';
  fs.writeFileSync(path.join(root, 'MEMORY.md'), orig);
  const src: any = { root, adapter: { indexFile: 'MEMORY.md' } };
  const r = mulberry32(k);
  const out = new Set<number>();
  const log: string[] = [];
  for (let step = 0; step < n * 4; step++) {
    const i = Math.floor(r() * n);
    const found: any = { source: src, filename: `m${i}.md` };
    const e = out.has(i) ? planIndexEdit(found, 'quarantined', 'verified', {}) : planIndexEdit(found, 'verified', 'quarantined', {});
    if (e) applyIndexEdit(root, e, 't');
    log.push(`${e?.kind} m${i} ${JSON.stringify(e)} -> ${JSON.stringify(fs.readFileSync(path.join(root, 'MEMORY.md'), 'utf8'))}`);
    if (out.has(i)) out.delete(i); else out.add(i);
  }
  const ok = out.size > 0 || fs.readFileSync(path.join(root, 'MEMORY.md'), 'utf8') === orig;
  if (!ok && verbose) console.log(log.join('\n'));
  fs.rmSync(root, { recursive: true });
  return ok;
}
for (let k = 0; k < 300; k++) if (!run(k, 2, false)) { run(k, 2, true); break; }
