/**
 * Memory folders found under ~/.claude (docs/configuration.md): listed for the user to add,
 * never used or written without a user action.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function discoverRoots(home = os.homedir()): string[] {
  const base = path.join(home, '.claude');
  const out: string[] = [];
  const claudeMemory = path.join(base, 'claude-memory');
  if (isDir(claudeMemory)) out.push(claudeMemory);
  let projects: string[] = [];
  try {
    projects = fs.readdirSync(path.join(base, 'projects'));
  } catch {
    // no projects folder
  }
  for (const p of projects.sort()) {
    const mem = path.join(base, 'projects', p, 'memory');
    if (isDir(mem)) out.push(mem);
  }
  return out;
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
