/**
 * The `yaml` package, loaded the first time a frontmatter needs it. Most frontmatter is read
 * by the fast path (fast-path.ts) without it, and loading it costs about 50 ms of a hook's
 * start (250 KiB of the bundle: docs/hooks.md, "Speed"); the guard runs on every
 * assistant write. Every module of the package reaches `yaml` through here.
 */
import type * as Yaml from 'yaml';

let mod: typeof Yaml | undefined;

export function yaml(): typeof Yaml {
  // A require inside the function: bundlers (esbuild, Next) keep the package's evaluation until the first call.
  mod ??= require('yaml') as typeof Yaml;
  return mod;
}

export const isAlias = ((n: unknown) => yaml().isAlias(n)) as typeof Yaml.isAlias;
export const isCollection = ((n: unknown) => yaml().isCollection(n)) as typeof Yaml.isCollection;
export const isMap = ((n: unknown) => yaml().isMap(n)) as typeof Yaml.isMap;
export const isPair = ((n: unknown) => yaml().isPair(n)) as typeof Yaml.isPair;
export const isScalar = ((n: unknown) => yaml().isScalar(n)) as typeof Yaml.isScalar;
export const parseDocument = ((...a: Parameters<typeof Yaml.parseDocument>) =>
  yaml().parseDocument(...a)) as typeof Yaml.parseDocument;
