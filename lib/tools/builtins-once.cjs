// esbuild's bundles of the hooks (lib/tools/build-hooks.mjs) and of the CLI launcher's small
// entries (lib/cli/memtrust.cjs) after one pass over their text: one copy of each built-in's
// exports per process, and the slow ones required on first use.
'use strict';

/**
 * Built-ins a hook may never use, whose loading costs milliseconds: `node:crypto` and
 * `node:zlib` load Node's stream modules, `node:child_process` its net and stream modules
 * (about 15 ms together). Modules of the session text and the stamp import them at their top
 * (the versions store, git, the rules' signature) for paths a run rarely takes; in the bundles
 * they are required on the first property read instead (docs/install.md, "Why the hooks are
 * committed bundles").
 */
const LAZY_BUILTINS = ['node:crypto', 'node:child_process', 'node:zlib'];

/**
 * esbuild gives each module its own copy of a built-in's exports (`__toESM(require("node:fs"))`
 * copies every property); the guard's bundles import fs, path, os and crypto in twenty-odd
 * modules, a few milliseconds of every hook's start. One copy per built-in, made once; the
 * LAZY_BUILTINS, a stand-in that requires the module on its first property read.
 */
function builtinsOnce(text, also = []) {
  const lazy = (id) => LAZY_BUILTINS.includes(id) || also.includes(id);
  // Built-ins, and the packages of `also` (kept out of the bundle, required on first use too).
  const ours = (id) => id.startsWith('node:') || also.includes(id);
  let out = text.replace(/__toESM\(require\("(node:[a-z_/]+|[\w@/.-]+)"\)(, 1)?\)/g, (whole, id, nodeMode) =>
    !ours(id)
      ? whole
      : lazy(id)
        ? `__lazyBuiltin("${id}", true${nodeMode ? ', 1' : ''})`
        : `__toESMOnce("${id}"${nodeMode ?? ''})`,
  );
  // A module's named imports of a built-in: `var import_x = require("node:child_process");`.
  out = out.replace(/^(var import_[\w$]+ = )require\("(node:[a-z_/]+|[\w@/.-]+)"\);$/gm, (line, head, id) =>
    ours(id) && lazy(id) ? `${head}__lazyBuiltin("${id}", false);` : line,
  );
  if (out === text) return text;
  // Function declarations: hoisted, so defined before any module of the bundle runs.
  return `${out}function __toESMOnce(id, nodeMode) {
  const key = nodeMode ? id + "#node" : id;
  // Shared by the bundles of one process (the guard's two files, an entry and its main).
  const seen = (globalThis[Symbol.for("memtrust.builtins")] ||= new Map());
  let m = seen.get(key);
  if (!m) seen.set(key, (m = __toESM(require(id), nodeMode)));
  return m;
}
function __lazyBuiltin(id, esm, nodeMode) {
  let m;
  const load = () => (m ||= esm ? __toESMOnce(id, nodeMode) : require(id));
  return new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });
}
`;
}

module.exports = { builtinsOnce, LAZY_BUILTINS };
