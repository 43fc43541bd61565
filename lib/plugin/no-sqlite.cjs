'use strict';
// Stands in for better-sqlite3 in the plugin's hook bundles (lib/tools/build-hooks.mjs):
// a plugin install never compiles the native module, and the hooks read files only
// (docs/install.md). Opening a database here is a bug, named as such.
function Database() {
  throw new Error('the SQLite index is not available to the plugin hooks (files only)');
}
module.exports = Database;
module.exports.default = Database;
