/** Shapes shared by the frontmatter reader and writer. */

/**
 * A frontmatter value as memtrust sees it. Scalars stay strings (the source
 * text for plain scalars, so `name: 123` is "123"): memtrust never needs YAML's
 * number/boolean typing, and keeping text avoids `1.0` turning into "1".
 * Maps are null-prototype objects, so a `__proto__` key is just data.
 */
export type FmValue = string | null | FmValue[] | FmMap;
export interface FmMap {
  [key: string]: FmValue;
}

export type FmErrorCode =
  | 'frontmatter-not-utf8'
  | 'frontmatter-too-large'
  | 'nesting-too-deep'
  | 'yaml-syntax'
  | 'duplicate-key'
  | 'yaml-anchor'
  | 'yaml-alias'
  | 'yaml-tag'
  | 'not-a-mapping'
  | 'non-scalar-key'
  | 'non-scalar-value';

export interface FmError {
  code: FmErrorCode;
  message: string;
  /** 1-based line in the file (the opening `---` is line 1). */
  line: number;
  /** The top-level key the error is about, when there is one. */
  key?: string;
}

export interface ParsedFrontmatter {
  /** Known keys hold strings; absent or null/empty known keys are not present. Null prototype. */
  data: Record<string, FmValue>;
  /** Top-level keys in source order (each once, first occurrence). */
  keys: string[];
  /** 1-based file line of each top-level key (first occurrence), and of each key read from `metadata:`, for findings. */
  keyLines: Map<string, number>;
  errors: FmError[];
  /**
   * Fields read from a top-level `metadata:` mapping because the top level lacks them
   * (current Claude Code files nest `type`, `node_type`, `originSessionId`; docs/claude-code-folders.md).
   * They are in `data` and `keyLines` like top-level keys, but not in `keys`: a rewrite never touches them.
   */
  nested?: string[];
}

/** Errors after which the parsed data is not a faithful picture of the block. */
export const FATAL_FM_ERRORS: ReadonlySet<FmErrorCode> = new Set<FmErrorCode>([
  'frontmatter-not-utf8',
  'frontmatter-too-large',
  'nesting-too-deep',
  'yaml-syntax',
  'not-a-mapping',
]);
