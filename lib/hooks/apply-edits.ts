/**
 * The bytes a write tool would leave on disk (docs/hooks.md "What the guard checks").
 * Pure. Edits are applied in order to the current text, each to the result of the
 * previous one, with Claude Code's rules: the old text must occur (exactly once unless
 * replace_all); an empty old text creates a file that does not exist yet. When the tool
 * itself would fail, the answer is `null` and the guard stays out of the way: Claude
 * Code reports the failed edit to the assistant and nothing is written.
 */
import type { ToolWrite } from './input';

export type Produced = { ok: true; text: string } | { ok: false; why: string };

export function produceContent(write: ToolWrite, current: string | null): Produced {
  if (write.tool === 'Write') return { ok: true, text: write.content };
  let text = current;
  for (let i = 0; i < write.edits.length; i++) {
    const e = write.edits[i]!;
    const where = write.edits.length > 1 ? `edit ${i + 1}` : 'the edit';
    if (text === null) {
      // Creating a file through Edit: only with an empty old text.
      if (e.oldString !== '') return { ok: false, why: `${where}: the file does not exist` };
      text = e.newString;
      continue;
    }
    if (e.oldString === '') {
      if (text !== '') return { ok: false, why: `${where}: empty old text on a file that is not empty` };
      text = e.newString;
      continue;
    }
    if (e.oldString === e.newString) return { ok: false, why: `${where}: old and new text are the same` };
    const first = text.indexOf(e.oldString);
    if (first === -1) return { ok: false, why: `${where}: old text not found` };
    if (e.replaceAll) {
      text = text.split(e.oldString).join(e.newString);
    } else {
      if (text.indexOf(e.oldString, first + 1) !== -1)
        return { ok: false, why: `${where}: old text occurs more than once and replace_all is not set` };
      text = text.slice(0, first) + e.newString + text.slice(first + e.oldString.length);
    }
  }
  return { ok: true, text: text ?? '' };
}
