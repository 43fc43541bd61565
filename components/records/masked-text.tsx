/**
 * Text from a record, already masked on the server (lib/validators/mask-inline.ts):
 * each `⟦credential #1 · 9 chars⟧` becomes the masked-value chip, the rest stays
 * plain text. Records have no reveal: the page source never holds the value.
 */
import { MASK_PATTERN } from '@/lib/validators/mask-pattern';
import { MaskedValue } from '@/components/masked-value';

export function MaskedText({ text }: { text: string }) {
  const re = new RegExp(MASK_PATTERN.source, 'g');
  const parts: React.ReactNode[] = [];
  let pos = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m.index > pos) parts.push(text.slice(pos, m.index));
    parts.push(
      <MaskedValue
        key={m.index}
        cls={m[1] === 'personal' ? 'personal' : 'credential'}
        n={Number(m[2])}
        length={Number(m[3])}
      />,
    );
    pos = m.index + m[0].length;
  }
  if (pos === 0) return <>{text}</>;
  if (pos < text.length) parts.push(text.slice(pos));
  return <>{parts}</>;
}
