#!/usr/bin/env node
// `npm pack` / `npm publish` run this first (package.json "prepack"): the package ships the
// built dashboard, so `memtrust serve` from an installed package never builds (docs/install.md).
// Builds only when the build is missing or older than a source, like `npm start`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from '../server/build-if-needed.mjs';

buildIfNeeded(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'));
