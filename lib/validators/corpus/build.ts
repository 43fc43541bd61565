/**
 * Builds the labelled credentials corpus from snippets.ts (docs/credentials.md):
 * memory files in the shapes real folders have — flat and nested (`metadata:`)
 * frontmatter, no frontmatter, CRLF, index lines, prose, tables, code blocks —
 * each with its labels. Deterministic for a seed; nothing is written to disk here.
 */
import { NEGATIVES, POSITIVES, type Snippet, type TokenMaker } from './snippets';
import { HOLDOUT_NEGATIVES, HOLDOUT_POSITIVES } from './holdout';
import { CONTEXT_HOLDOUT_NEGATIVES, CONTEXT_HOLDOUT_POSITIVES } from './holdout-context';
import { mulberry32 as rng } from '../../demo/prng';
import { MEMORY_TYPES } from '../../trust/tiers';

export interface Label {
  class: 'credential' | 'personal';
  value: string;
  form: string;
}

export interface CorpusFile {
  name: string;
  text: string;
  labels: Label[];
  /** True when the file holds no labelled value at all. */
  clean: boolean;
}

function tokens(r: () => number): TokenMaker {
  const pick = (set: string, n: number) => Array.from({ length: n }, () => set[Math.floor(r() * set.length)]).join('');
  const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  // Mixed letters and digits, like a real key: retry until both are present.
  const alnum = (n: number) => {
    for (;;) {
      const s = pick(AN, n);
      if (/\d/.test(s) && /[A-Za-z]/.test(s)) return s;
    }
  };
  const b64 = (n: number) => {
    for (;;) {
      const s = pick(`${AN}+/`, n);
      if (/\d/.test(s) && /[A-Za-z]/.test(s)) return s;
    }
  };
  return {
    gh: () => ['ghp', alnum(36)].join('_'),
    ghPat: () => ['github', 'pat', `${alnum(22)}_${alnum(59)}`].join('_'),
    openai: () => ['sk', 'proj', alnum(40)].join('-'),
    anthropic: () => ['sk', 'ant', 'api03', alnum(40)].join('-'),
    aws: () => ['AK', 'IA', pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)].join(''),
    slack: () => ['xo', 'xb-', pick('0123456789', 12), '-', alnum(24)].join(''),
    gitlab: () => ['gl', 'pat-', alnum(20)].join(''),
    google: () => ['AI', 'za', alnum(35)].join(''),
    stripe: () => ['sk', 'live', alnum(24)].join('_'),
    jwt: () => ['ey', `J${alnum(20)}.ey`, `J${alnum(30)}.${alnum(43)}`].join(''),
    hex: (n) => pick('0123456789abcdef', n),
    b64,
    alnum,
  };
}

const MARK = /\[\[([cp]):([\s\S]*?)\]\]/g;

function strip(text: string, form: string): { text: string; labels: Label[] } {
  const labels: Label[] = [];
  const out = text.replace(MARK, (_m, cls: string, value: string) => {
    labels.push({ class: cls === 'c' ? 'credential' : 'personal', value, form });
    return value;
  });
  return { text: out, labels };
}

type Shape = 'flat' | 'nested' | 'none' | 'crlf' | 'index';

function frontmatter(shape: Shape, name: string, r: () => number): string {
  const type = MEMORY_TYPES[Math.floor(r() * MEMORY_TYPES.length)];
  if (shape === 'none' || shape === 'index') return '';
  if (shape === 'nested') {
    return `---\nname: ${name}\ndescription: Homelab notes, part ${Math.floor(r() * 90) + 10}\nmetadata:\n  type: ${type}\n  node_type: memory\n  originSessionId: ${Math.floor(r() * 1e9).toString(16)}-session\n---\n\n`;
  }
  return `---\nname: ${name}\ndescription: Notes kept from earlier sessions\ntype: ${type}\ntrust-level: inferred\ncreated-at: 2026-0${Math.floor(r() * 9) + 1}-1${Math.floor(r() * 9)}\n---\n\n`;
}

function compose(shape: Shape, name: string, parts: string[], r: () => number): string {
  let body: string;
  if (shape === 'index') body = `# Memory index\n\n${parts.map((p) => `- ${p.replace(/\n/g, ' ')}`).join('\n')}\n`;
  else body = `# ${name}\n\n${parts.join('\n\n')}\n`;
  const text = frontmatter(shape, name, r) + body;
  return shape === 'crlf' ? text.replace(/\n/g, '\r\n') : text;
}

export type CorpusSet = 'tuning' | 'holdout' | 'context-holdout';

export interface CorpusOptions {
  seed?: number;
  /** Files holding labelled values (each 1–3 positives among look-alikes). */
  positiveFiles?: number;
  /** Files holding look-alikes and ordinary notes only. */
  cleanFiles?: number;
  /**
   * Which snippets: the tuning set (snippets.ts), the held-out set (holdout.ts) or the held-out
   * set of the context-and-shape rule (holdout-context.ts).
   */
  set?: CorpusSet;
}

/** The corpus: every positive snippet appears at least once, then random draws. */
export function buildCorpus(opts: CorpusOptions = {}): CorpusFile[] {
  const r = rng(opts.seed ?? 10);
  const t = tokens(r);
  const nPos = opts.positiveFiles ?? 300;
  const nClean = opts.cleanFiles ?? 400;
  const shapes: Shape[] = ['flat', 'flat', 'nested', 'nested', 'none', 'crlf', 'index'];
  const [positives, negatives] =
    opts.set === 'holdout'
      ? [HOLDOUT_POSITIVES, HOLDOUT_NEGATIVES]
      : opts.set === 'context-holdout'
        ? [CONTEXT_HOLDOUT_POSITIVES, CONTEXT_HOLDOUT_NEGATIVES]
        : [POSITIVES, NEGATIVES];
  const all: Array<[string, Snippet]> = Object.entries(positives).flatMap(([form, list]) =>
    list.map((s): [string, Snippet] => [form, s]),
  );
  const negative = () => negatives[Math.floor(r() * negatives.length)]!(t);
  const files: CorpusFile[] = [];
  for (let i = 0; i < nPos; i++) {
    const picks = [all[i % all.length]!];
    const extra = Math.floor(r() * 3);
    for (let k = 0; k < extra; k++) picks.push(all[Math.floor(r() * all.length)]!);
    const parts: string[] = [];
    const labels: Label[] = [];
    for (const [form, s] of picks) {
      const st = strip(s(t), form);
      parts.push(st.text);
      labels.push(...st.labels);
      parts.push(negative());
    }
    const shape = shapes[Math.floor(r() * shapes.length)]!;
    const name = `corpus_pos_${String(i).padStart(3, '0')}`;
    // Index lines are single lines: multi-line snippets keep their prose shape.
    const s = shape === 'index' && parts.some((p) => p.includes('\n')) ? 'flat' : shape;
    files.push({ name: `${name}.md`, text: compose(s, name, parts, r), labels, clean: false });
  }
  for (let i = 0; i < nClean; i++) {
    const n = 3 + Math.floor(r() * 4);
    const parts = Array.from({ length: n }, negative);
    const shape = shapes[Math.floor(r() * shapes.length)]!;
    const name = `corpus_clean_${String(i).padStart(3, '0')}`;
    const s = shape === 'index' && parts.some((p) => p.includes('\n')) ? 'flat' : shape;
    files.push({ name: `${name}.md`, text: compose(s, name, parts, r), labels: [], clean: true });
  }
  return files;
}
