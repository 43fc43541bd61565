/**
 * The records of the real-folder credential evaluation (README.md here) are well-formed and hold
 * nothing but ids, repositories, commits, paths, folds, languages, counts and label positions —
 * no note text, no value. Reads only the two committed files; needs no copied data.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FOLDERS_JSON, FOLDS, LABELS_TSV, parseLabels, readFolders } from './folders';

const FOLDER_KEYS = ['commit', 'files', 'fold', 'id', 'languages', 'path', 'repo'];

describe('folders.json', () => {
  const folders = readFolders();

  it('has only the recorded fields, each of its form', () => {
    for (const f of folders) {
      expect(Object.keys(f).sort(), f.id).toEqual(FOLDER_KEYS);
      expect(f.id, f.id).toMatch(/^r[0-9]{2,3}$/);
      expect(f.repo, f.id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}\/[A-Za-z0-9._-]{1,100}$/);
      expect(f.commit, f.id).toMatch(/^[0-9a-f]{40}$/);
      expect(f.path === '.' || /^[^/].*[^/]$/.test(f.path), f.id).toBe(true);
      expect(f.path.split('/'), f.id).not.toContain('..');
      expect(FOLDS as readonly string[], f.id).toContain(f.fold);
      expect(f.languages.length, f.id).toBeGreaterThan(0);
      for (const l of f.languages) expect(l, f.id).toMatch(/^[a-z]{2}$/);
      expect(Number.isInteger(f.files) && f.files > 0, f.id).toBe(true);
    }
  });

  it('ids are unique and no folder is recorded twice', () => {
    expect(new Set(folders.map((f) => f.id)).size).toBe(folders.length);
    expect(new Set(folders.map((f) => `${f.repo}:${f.path}`)).size).toBe(folders.length);
  });

  it('folds are split by repository: no repository has folders in two folds', () => {
    const foldOf = new Map<string, string>();
    for (const f of folders) {
      expect(foldOf.get(f.repo) ?? f.fold, f.id).toBe(f.fold);
      foldOf.set(f.repo, f.fold);
    }
  });

  it('is large enough to say something: ≥ 25 folders, ≥ 2,000 files, ≥ 6 languages, held-out folds of 15 folders', () => {
    expect(folders.length).toBeGreaterThanOrEqual(25);
    expect(folders.reduce((n, f) => n + f.files, 0)).toBeGreaterThanOrEqual(2000);
    expect(new Set(folders.flatMap((f) => f.languages)).size).toBeGreaterThanOrEqual(6);
    expect(folders.some((f) => f.fold === 'tune')).toBe(true);
    // A spent held-out fold joins tune (README.md "Folds"); a fresh one, drawn for the next round
    // by a labeller who changes no rule (its records arrive on their own), is split by folder and
    // large enough to measure: 15 folders and 800 files at least.
    const heldOutFolds = FOLDS.filter((x) => x !== 'tune' && folders.some((f) => f.fold === x));
    for (const fold of heldOutFolds) {
      const own = folders.filter((f) => f.fold === fold);
      expect(own.length, fold).toBeGreaterThanOrEqual(15);
      expect(
        own.reduce((n, f) => n + f.files, 0),
        fold,
      ).toBeGreaterThanOrEqual(800);
    }
  });
});

describe('labels.tsv', () => {
  const text = fs.readFileSync(LABELS_TSV, 'utf8');
  const { labels, errors } = parseLabels(text);
  const folders = new Map(readFolders().map((f) => [f.id, f]));

  it('parses: a header, then rows of exactly four columns', () => {
    expect(errors).toEqual([]);
    expect(labels.length).toBeGreaterThan(0);
    for (const row of text.split('\n').slice(1)) {
      if (row === '' || row.startsWith('#')) continue;
      expect(row.split('\t'), row).toHaveLength(4);
    }
  });

  it('points only at recorded folders', () => {
    for (const l of labels) expect(folders.has(l.folder), `${l.folder}/${l.file}:${l.line}`).toBe(true);
  });

  it('labels some credentials in every fold that has folders', () => {
    for (const fold of FOLDS) {
      if (![...folders.values()].some((f) => f.fold === fold)) continue;
      const n = labels.filter((l) => l.kind === 'credential' && folders.get(l.folder)?.fold === fold).length;
      expect(n, fold).toBeGreaterThan(0);
    }
  });

  it('the parser refuses rows that could carry more than a position', () => {
    const head = 'folder\tfile\tline\tkind\n';
    expect(parseLabels(`${head}r01\ta.md\t3\tcredential\n`).errors).toEqual([]);
    expect(parseLabels(`${head}r01\ta.md\t3\tcredential\tvalue\n`).errors).toHaveLength(1);
    expect(parseLabels(`${head}r01\ta.md\tthree\tcredential\n`).errors).toHaveLength(1);
    expect(parseLabels(`${head}r01\ta.md\t3\tsecret\n`).errors).toHaveLength(1);
    expect(parseLabels(`${head}r01\t../a.md\t3\tcredential\n`).errors).toHaveLength(1);
    expect(parseLabels(`${head}r01\ta.txt\t3\tcredential\n`).errors).toHaveLength(1);
    expect(parseLabels(`folder\tfile\tline\n`).errors).toHaveLength(1);
  });
});

it('FOLDERS_JSON is the file the copy script reads', () => {
  expect(fs.existsSync(FOLDERS_JSON)).toBe(true);
});
