/**
 * A generated Claude Code home (LAYOUTS §2 "Where they live on a real machine"): projects
 * with their auto-memory folders under `<config>/projects/<encoded>/memory/`, a transcript
 * recording each session's `cwd`, user and project agent memory. For tests and
 * bench/home.ts; the memories come from generateClaudeCodeFolder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateClaudeCodeFolder } from './claude-code';
import { writeCorpus } from './write';

export interface HomeProject {
  /** Absolute path of the project. */
  path: string;
  /** Memories in its auto-memory folder (0: no memory/ folder). */
  memories: number;
  /** False: the folder under projects/ exists, the project itself no longer does. */
  exists?: boolean;
  /** A `.git` folder at the project's top (default true). */
  git?: boolean;
  /** A transcript beside memory/ recording the session's cwd (default true). */
  transcript?: boolean;
  /** Agent names with memory in `<project>/.claude/agent-memory/<name>/`. */
  agents?: string[];
  /** Agent names with memory in `<project>/.claude/agent-memory-local/<name>/`. */
  localAgents?: string[];
}

export interface HomeOptions {
  /** The Claude Code config dir (`~/.claude` or `$CLAUDE_CONFIG_DIR`). */
  configDir: string;
  projects: HomeProject[];
  /** User agent memory: `<config>/agent-memory/<name>/`, with this many memories each. */
  userAgents?: { name: string; memories: number }[];
  seed: number | string;
  now: Date;
}

/** The encoding Claude Code gives a project's folder (same rule as lib/sources/claude-home.ts). */
function encode(p: string): string {
  return p.replace(/[^A-Za-z0-9]/g, '-');
}

function writeFolder(dir: string, n: number, seed: string, now: Date): number {
  const folder = generateClaudeCodeFolder({ n, seed, now });
  writeCorpus(dir, folder);
  return folder.files.length;
}

/** Writes the home; returns how many files it wrote (memories and indexes). */
export function writeClaudeHome(o: HomeOptions): number {
  let files = 0;
  for (const p of o.projects) {
    const folder = path.join(o.configDir, 'projects', encode(p.path));
    fs.mkdirSync(folder, { recursive: true });
    if (p.memories > 0) files += writeFolder(path.join(folder, 'memory'), p.memories, `${o.seed}:${p.path}`, o.now);
    if (p.transcript !== false) {
      const line = {
        type: 'user',
        cwd: p.path,
        sessionId: 's-1',
        timestamp: o.now.toISOString(),
        message: { content: 'hi' },
      };
      fs.writeFileSync(path.join(folder, 's-1.jsonl'), `${JSON.stringify(line)}\n`);
    }
    if (p.exists === false) continue;
    fs.mkdirSync(p.path, { recursive: true });
    if (p.git !== false) fs.mkdirSync(path.join(p.path, '.git'), { recursive: true });
    for (const a of p.agents ?? [])
      files += writeFolder(path.join(p.path, '.claude', 'agent-memory', a), 3, `${o.seed}:${p.path}:${a}`, o.now);
    for (const a of p.localAgents ?? [])
      files += writeFolder(
        path.join(p.path, '.claude', 'agent-memory-local', a),
        3,
        `${o.seed}:${p.path}:l:${a}`,
        o.now,
      );
  }
  for (const a of o.userAgents ?? [])
    files += writeFolder(path.join(o.configDir, 'agent-memory', a.name), a.memories, `${o.seed}:user:${a.name}`, o.now);
  return files;
}
