/**
 * The records of bench/real-credentials (README.md there): folders.json (which public memory
 * folders, at which commit, in which fold) and labels.tsv (where the credentials are: folder,
 * file, line, kind — never a value). Parsing and checks shared by copy.ts, the bench
 * (bench/credentials-real.ts) and labels.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * `tune` (r01–r177) is read while changing the rules; a held-out fold (`held-out-8`: r178–r207,
 * `held-out-9`: r208–r237, each drawn fresh) is never read, listed or described while tuning, only
 * run once to measure; a spent held-out fold joins tune (README.md "Folds": `held-out` to
 * `held-out-7` are spent and empty).
 */
export const FOLDS = [
  'tune',
  'held-out',
  'held-out-2',
  'held-out-3',
  'held-out-4',
  'held-out-5',
  'held-out-6',
  'held-out-7',
  'held-out-8',
  'held-out-9',
] as const;
export type Fold = (typeof FOLDS)[number];
export const LABEL_KINDS = ['credential', 'personal'] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

export interface RealFolder {
  id: string;
  /** owner/name on GitHub. */
  repo: string;
  /** 40-hex commit the folder is read at. */
  commit: string;
  /** The folder inside the repository; `.` for the repository's root. */
  path: string;
  fold: Fold;
  /** Main languages of the notes (ISO 639-1). */
  languages: string[];
  /** Markdown files in the folder at that commit. */
  files: number;
}

export interface RealLabel {
  folder: string;
  /** Path relative to the folder, `/`-separated. */
  file: string;
  /** 1-based line. */
  line: number;
  kind: LabelKind;
}

export const RECORDS_DIR = __dirname;
export const FOLDERS_JSON = path.join(RECORDS_DIR, 'folders.json');
export const LABELS_TSV = path.join(RECORDS_DIR, 'labels.tsv');

/** The copy's folder for a fold: DATA/tune/<id>/…, DATA/held-out-3/<id>/…, and so on. */
export function foldDir(fold: Fold): string {
  return fold;
}

/**
 * Sub-folders of DATA where a fold's copies may also be, in order: copies made when the folds were
 * named `unseen-1`/`unseen-2` sit under `unseen/`.
 */
export function foldDirs(fold: Fold): string[] {
  return [fold, 'unseen', 'tune'].filter((d, i, a) => a.indexOf(d) === i);
}

export function readFolders(file = FOLDERS_JSON): RealFolder[] {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { folders: RealFolder[] };
  return doc.folders;
}

/** labels.tsv: a header line, then `folder<TAB>file<TAB>line<TAB>kind` rows; `#` lines are comments. */
export function parseLabels(text: string): { labels: RealLabel[]; errors: string[] } {
  const labels: RealLabel[] = [];
  const errors: string[] = [];
  const lines = text.split('\n');
  if (lines[0] !== 'folder\tfile\tline\tkind')
    errors.push('line 1: the header must be folder<TAB>file<TAB>line<TAB>kind');
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l === '' || l.startsWith('#')) continue;
    const cols = l.split('\t');
    if (cols.length !== 4) {
      errors.push(`line ${i + 1}: ${cols.length} columns, want 4`);
      continue;
    }
    const [folder, file, line, kind] = cols as [string, string, string, string];
    if (!/^[1-9][0-9]*$/.test(line)) errors.push(`line ${i + 1}: line number ${JSON.stringify(line)}`);
    if (!(LABEL_KINDS as readonly string[]).includes(kind)) errors.push(`line ${i + 1}: kind ${JSON.stringify(kind)}`);
    if (!/^[^\t]+\.md$/.test(file) || file.startsWith('/') || file.split('/').includes('..')) {
      errors.push(`line ${i + 1}: file ${JSON.stringify(file)} is not a relative .md path`);
    }
    labels.push({ folder, file, line: Number(line), kind: kind as LabelKind });
  }
  return { labels, errors };
}

export function readLabels(file = LABELS_TSV): RealLabel[] {
  const { labels, errors } = parseLabels(fs.readFileSync(file, 'utf8'));
  if (errors.length > 0) throw new Error(`${file}: ${errors.join('; ')}`);
  return labels;
}
