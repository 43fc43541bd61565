import { insertIndexLine, removeIndexLine } from './claude-index';
import { mulberry32 } from '../demo';
import { applyIndexEdit, planIndexEdit } from './index-edit';
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
// Full path through planIndexEdit/applyIndexEdit with a real stash; random interleaved demote/restore.
function run(k: number, n: number, withBlank: boolean) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-'));
  const lines = ['# Index', '', ...Array.from({ length: n }, (_, i) => `- [m${i}](m${i}.md)${withBlank && i === Math.floor(n / 2) ? '\n\n## More' : ''}`), '', 'notes'];
  const orig = lines.join('\n') + '\n';
  fs.writeFileSync(path.join(root, 'MEMORY.md'), orig);
  const src: any = { root, adapter: { indexFile: 'MEMORY.md' } };
  const r = mulberry32(k);
  const out = new Set<number>();
  for (let step = 0; step < n * 4; step++) {
    const i = Math.floor(r() * n);
    const found: any = { source: src, filename: `m${i}.md` };
    const e = out.has(i) ? planIndexEdit(found, 'quarantined', 'verified', {}) : planIndexEdit(found, 'verified', 'quarantined', {});
    if (e) applyIndexEdit(root, e, 't');
    if (out.has(i)) out.delete(i); else out.add(i);
  }
  for (const i of [...out].sort(() => r() - 0.5)) { const e = planIndexEdit({ source: src, filename: `m${i}.md` } as any, 'quarantined', 'verified', {}); if (e) applyIndexEdit(root, e, 't'); }
  const ok = fs.readFileSync(path.join(root, 'MEMORY.md'), 'utf8') === orig;
  fs.rmSync(root, { recursive: true });
  return ok;
}
for (const n of [2, 3, 5, 8, 20]) for (const b of [false, true]) {
  let ok = 0; for (let k = 0; k < 300; k++) if (run(k, n, b)) ok++;
  console.log(`n=${n} blank=${b}: exact ${ok}/300`);
}
