'use strict';
// Turbopack's server build requires each server external package by a hashed alias
// (`better-sqlite3-<16 hex>`), which `.next/node_modules/` links to the package. npm never
// packs a node_modules folder, so an installed package has no such links (docs/install.md,
// "The package"): an alias that does not resolve is resolved as its package instead.
// Nothing is written into the install folder.
const Module = require('node:module');

const ALIAS = /^((?:@[^/]+\/)?[^/]+?)-[0-9a-f]{16}(\/.*)?$/;
const resolve = Module._resolveFilename;

Module._resolveFilename = function resolveAlias(request, ...rest) {
  try {
    return resolve.call(this, request, ...rest);
  } catch (err) {
    const m = ALIAS.exec(request);
    if (!m) throw err;
    return resolve.call(this, m[1] + (m[2] ?? ''), ...rest);
  }
};
