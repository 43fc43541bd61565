/**
 * Precision and recall of the secret check on the labelled corpus, per class
 * (docs/credentials.md). A finding's span counts as a hit when it overlaps a
 * labelled value of the same class in text (one label per span, one span per
 * label); every other span is a false positive, every unmatched label a miss.
 */
import { maskSpans } from '../mask-inline';
import type { FindingClass, OwnerIdentity } from '../types';
import type { CorpusFile } from './build';

export interface ClassScore {
  labels: number;
  found: number;
  truePositives: number;
  falsePositives: number;
  misses: number;
  precision: number;
  recall: number;
}

export interface CorpusScore {
  files: number;
  cleanFiles: number;
  credential: ClassScore;
  personal: ClassScore;
  /** False credential findings in clean files, per 200 clean files. */
  falseCredentialPer200Clean: number;
  missed: Array<{ file: string; form: string; value: string }>;
  spurious: Array<{ file: string; class: FindingClass; code: string; length: number; line: string }>;
}

const empty = (): ClassScore => ({
  labels: 0,
  found: 0,
  truePositives: 0,
  falsePositives: 0,
  misses: 0,
  precision: 1,
  recall: 1,
});

function overlapsValue(span: string, value: string): boolean {
  return span === value || (span.length >= 4 && value.includes(span)) || (value.length >= 4 && span.includes(value));
}

export function scoreCorpus(files: CorpusFile[], owner: OwnerIdentity): CorpusScore {
  const score: CorpusScore = {
    files: files.length,
    cleanFiles: 0,
    credential: empty(),
    personal: empty(),
    falseCredentialPer200Clean: 0,
    missed: [],
    spurious: [],
  };
  let cleanFalseCredentials = 0;
  for (const f of files) {
    if (f.clean) score.cleanFiles++;
    const spans = maskSpans(f.text, owner).map((s) => ({ ...s, value: f.text.slice(s.start, s.end), used: false }));
    for (const l of f.labels) {
      const s = score[l.class];
      s.labels++;
      const hit = spans.find((x) => !x.used && x.class === l.class && overlapsValue(x.value, l.value));
      if (hit) {
        hit.used = true;
        s.truePositives++;
      } else {
        s.misses++;
        score.missed.push({ file: f.name, form: l.form, value: l.value });
      }
    }
    for (const x of spans) {
      score[x.class].found++;
      if (x.used) continue;
      score[x.class].falsePositives++;
      if (x.class === 'credential' && f.clean) cleanFalseCredentials++;
      const lineStart = f.text.lastIndexOf('\n', x.start) + 1;
      const lineEnd = f.text.indexOf('\n', x.end);
      const line = f.text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
      score.spurious.push({
        file: f.name,
        class: x.class,
        code: x.code,
        length: x.value.length,
        line: line.replace(x.value, '⟦…⟧'),
      });
    }
  }
  for (const c of ['credential', 'personal'] as const) {
    const s = score[c];
    s.precision = s.found === 0 ? 1 : s.truePositives / (s.truePositives + s.falsePositives);
    s.recall = s.labels === 0 ? 1 : s.truePositives / s.labels;
  }
  score.falseCredentialPer200Clean = score.cleanFiles === 0 ? 0 : (cleanFalseCredentials / score.cleanFiles) * 200;
  return score;
}
