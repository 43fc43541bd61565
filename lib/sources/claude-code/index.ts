/**
 * Layout 2 (docs/layouts.md): Claude Code's auto-memory folder — flat typed `*.md` files
 * plus the `MEMORY.md` index, which is never a memory. Quarantine and archive live
 * in sub-folders of the same folder.
 */
import { MEMORY_ACTIONS, type Location } from '../../trust/tiers';
import { fileLayoutAdapter } from '../file-layout';
import { listArchive, listMarkdown } from '../list-dir';

export const INDEX_FILE = 'MEMORY.md';

export const claudeCodeLayout = fileLayoutAdapter('claude-code', 'Claude Code memory folder', {
  // Each file is judged by Claude Code's own conventions, not seed 000's (docs/validators.md "Rules by layout").
  list: (root) => {
    const files = [
      ...listMarkdown(root, '', 'memories', (n) => n === INDEX_FILE),
      ...listMarkdown(root, 'quarantine', 'quarantine'),
      ...listArchive(root, 'archive'),
    ];
    for (const f of files) f.rules = 'claude-code';
    return files;
  },
  dirOf: (location: Location, month?: string) =>
    location === 'memories' ? '' : location === 'quarantine' ? 'quarantine' : `archive/${month}`,
  supports: MEMORY_ACTIONS,
  indexFile: INDEX_FILE,
});
