/** Layout 1 (docs/trust-model.md): `memories/`, `quarantine/`, `archive/YYYY-MM/`. */
import { MEMORY_ACTIONS, type Location } from '../../trust/tiers';
import { fileLayoutAdapter } from '../file-layout';
import { listArchive, listMarkdown } from '../list-dir';

const DIRS: Record<Location, string> = { memories: 'memories', quarantine: 'quarantine', archive: 'archive' };

export const trustRootLayout = fileLayoutAdapter('trust-root', 'trust-model root', {
  list: (root) => [
    ...listMarkdown(root, DIRS.memories, 'memories', (n) => n === 'MEMORY.md'),
    ...listMarkdown(root, DIRS.quarantine, 'quarantine'),
    ...listArchive(root, DIRS.archive),
  ],
  dirOf: (location, month) => (location === 'archive' ? `${DIRS.archive}/${month}` : DIRS[location]),
  supports: MEMORY_ACTIONS,
});
