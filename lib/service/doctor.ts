/**
 * `memtrust doctor` (docs/install.md, "Checking an install"): what is installed — the Claude
 * Code plugin, hooks in the user's settings, or both (then every hook runs twice) — which
 * roots memtrust reads, where its index and data live, and each problem with the command
 * that fixes it. Reads only: it changes no file and never creates the index.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Env } from '../core/env';
import { dataDir, loadConfig } from '../core/config';
import { describeSource } from '../sources';
import { ourCommands, type HookEvent } from '../hooks/install-entries';
import { claudeSettingsPath, hookStatus, memtrustCommand, readJsonObject } from './session/hook-install';
import { projectDir } from '../core/project';

export interface PluginInstall {
  /** `memtrust@<marketplace>` as Claude Code names it. */
  id: string;
  version: string | null;
  installPath: string | null;
  scope: string | null;
  /** false when settings.json has it in enabledPlugins as false. */
  enabled: boolean;
}

export interface Problem {
  problem: string;
  fix: string;
}

export interface DoctorReport {
  version: string;
  install: { kind: 'package' | 'clone'; dir: string; command: string };
  claudeDir: string;
  plugin: PluginInstall[];
  settings: {
    file: string;
    problem: string | null;
    hooks: { event: HookEvent; state: string; commands: string[] }[];
  };
  roots: { root: string; layout: string | null; error: string | null }[];
  rootsOrigin: string | null;
  index: { file: string; exists: boolean; bytes: number | null };
  dataDir: string;
  problems: Problem[];
  healthy: boolean;
}

/** Claude Code's configuration folder: CLAUDE_CONFIG_DIR, else ~/.claude. */
export function claudeDir(env: Env = process.env): string {
  return env.CLAUDE_CONFIG_DIR || path.join(env.HOME || os.homedir(), '.claude');
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The memtrust plugin as Claude Code records it: `plugins/installed_plugins.json` (version 2:
 * each id maps to a list of installs; version 1: to one object), the version read from the
 * installed copy's own plugin.json when it is there.
 */
export function findPluginInstalls(env: Env = process.env): PluginInstall[] {
  const dir = claudeDir(env);
  const installed = readJson(path.join(dir, 'plugins', 'installed_plugins.json'));
  const settings = readJson(claudeSettingsPath(env));
  const enabledMap = isObj(settings) && isObj(settings.enabledPlugins) ? settings.enabledPlugins : {};
  const out: PluginInstall[] = [];
  const plugins = isObj(installed) && isObj(installed.plugins) ? installed.plugins : {};
  for (const [id, value] of Object.entries(plugins)) {
    if (!id.startsWith('memtrust@')) continue;
    for (const rec of Array.isArray(value) ? value : [value]) {
      if (!isObj(rec)) continue;
      const installPath = typeof rec.installPath === 'string' ? rec.installPath : null;
      const manifest = installPath ? readJson(path.join(installPath, '.claude-plugin', 'plugin.json')) : null;
      const version =
        isObj(manifest) && typeof manifest.version === 'string'
          ? manifest.version
          : typeof rec.version === 'string'
            ? rec.version
            : null;
      out.push({
        id,
        version,
        installPath,
        scope: typeof rec.scope === 'string' ? rec.scope : null,
        enabled: enabledMap[id] !== false,
      });
    }
  }
  return out;
}

function packageVersion(dir: string): string {
  const pkg = readJson(path.join(dir, 'package.json'));
  return isObj(pkg) && typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/**
 * Where `/plugin marketplace add` finds memtrust from this install (docs/install.md): the
 * clone or package itself when it holds the marketplace file (Claude Code adds a local folder
 * as a marketplace), else the published repository.
 */
function marketplaceSource(dir: string): string {
  return fs.existsSync(path.join(dir, '.claude-plugin', 'marketplace.json')) ? dir : 'OWNER/memtrust';
}

/** Absolute paths a hook command names (the node and memtrust it runs). */
function pathsIn(command: string): string[] {
  return [...command.matchAll(/'([^']+)'|"([^"]+)"|(\S+)/g)]
    .map((m) => m[1] ?? m[2] ?? m[3] ?? '')
    .filter((p) => path.isAbsolute(p));
}

export function doctor(env: Env = process.env): DoctorReport {
  const dir = projectDir();
  const kind = dir.split(path.sep).includes('node_modules') ? 'package' : 'clone';
  const version = packageVersion(dir);
  const problems: Problem[] = [];

  const plugin = findPluginInstalls(env);
  const activePlugins = plugin.filter((p) => p.enabled);
  const status = hookStatus(env);
  const settingsRead = readJsonObject(status.file);
  const settingsValue = settingsRead.ok ? settingsRead.value : null;
  const hooks = status.entries.map((e) => ({
    event: e.event,
    state: e.state,
    commands: ourCommands(settingsValue, e.event),
  }));
  if (status.problem)
    problems.push({
      problem: `${status.file}: ${status.problem}`,
      fix: `fix the file by hand (its hooks cannot be read), then: memtrust doctor`,
    });

  const inSettings = hooks.some((h) => h.commands.length > 0);
  if (activePlugins.length > 1)
    problems.push({
      problem: `the memtrust plugin is installed ${activePlugins.length} times (${activePlugins.map((p) => `${p.id} ${p.version ?? '?'}`).join(', ')}): each hook runs ${activePlugins.length} times`,
      fix: `keep one: in Claude Code, /plugin uninstall ${activePlugins
        .slice(1)
        .map((p) => p.id)
        .join(' and ')}`,
    });
  if (activePlugins.length > 0 && inSettings)
    problems.push({
      problem: `memtrust's hooks are registered twice: by the plugin (${activePlugins[0]!.id}) and in ${status.file}; each write is guarded and stamped twice`,
      fix: 'memtrust hook uninstall   (removes the settings entries; the plugin keeps the hooks)',
    });
  for (const h of hooks)
    if (h.commands.length > 1)
      problems.push({
        problem: `${status.file} registers the ${h.event} hook ${h.commands.length} times`,
        fix: 'memtrust hook uninstall && memtrust hook install --apply',
      });
  if (activePlugins.length === 0 && !inSettings)
    problems.push({
      problem: 'no memtrust hooks are installed: assistant writes into a memory root are neither guarded nor stamped',
      fix: `in Claude Code: /plugin marketplace add ${marketplaceSource(dir)}, then /plugin install memtrust@memtrust; or: memtrust hook install --apply`,
    });
  if (activePlugins.length === 0 && inSettings) {
    for (const h of hooks) {
      const gone = h.commands.flatMap(pathsIn).filter((p) => !fs.existsSync(p));
      if (gone.length > 0)
        problems.push({
          problem: `the ${h.event} hook in ${status.file} runs ${gone[0]}, which does not exist (a moved or deleted install)`,
          fix: 'memtrust hook install --apply',
        });
      else if (h.state === 'missing')
        problems.push({ problem: `no ${h.event} hook in ${status.file}`, fix: 'memtrust hook install --apply' });
    }
  }
  for (const p of activePlugins)
    if (p.version && p.version !== version)
      problems.push({
        problem: `the plugin ${p.id} is version ${p.version}, this memtrust is ${version}`,
        fix: `in Claude Code: /plugin marketplace update ${p.id.split('@')[1]}, then /plugin update ${p.id}  (or update this install)`,
      });

  let roots: DoctorReport['roots'] = [];
  let rootsOrigin: string | null = null;
  let dbPath = env.MEMTRUST_DB || path.join(dataDir(env), 'index.sqlite');
  try {
    const config = loadConfig({ env });
    rootsOrigin = config.rootsOrigin;
    dbPath = config.dbPath;
    roots = config.roots.map((r) => {
      const s = describeSource(r);
      return { root: r, layout: s.layout ?? null, error: s.error };
    });
    if (config.demo)
      problems.push({
        problem: 'no memory root is configured: memtrust reads its generated demo root',
        fix: 'memtrust roots   (lists what was found under ~/.claude), then add one in the dashboard settings or set MEMTRUST_ROOT',
      });
    for (const r of roots)
      if (r.error && !config.demo)
        problems.push({ problem: `${r.root}: ${r.error}`, fix: `memtrust roots   (then fix or remove ${r.root})` });
  } catch (e) {
    problems.push({
      problem: (e as Error).message,
      fix: 'memtrust roots   (then correct MEMTRUST_ROOT or the roots in the dashboard settings)',
    });
  }

  let bytes: number | null = null;
  try {
    bytes = fs.statSync(dbPath).size;
  } catch {
    bytes = null;
  }
  return {
    version,
    install: { kind, dir, command: memtrustCommand(dir) },
    claudeDir: claudeDir(env),
    plugin,
    settings: { file: status.file, problem: status.problem, hooks },
    roots,
    rootsOrigin,
    index: { file: dbPath, exists: bytes !== null, bytes },
    dataDir: dataDir(env),
    problems,
    healthy: problems.length === 0,
  };
}

/** The report as the command prints it. */
export function doctorText(r: DoctorReport): string {
  const lines: string[] = [];
  lines.push(
    `memtrust ${r.version} (${r.install.kind === 'package' ? 'installed package' : 'clone'} at ${r.install.dir})`,
  );
  lines.push(
    r.plugin.length === 0
      ? `Claude Code plugin: not installed (${path.join(r.claudeDir, 'plugins')})`
      : `Claude Code plugin: ${r.plugin
          .map(
            (p) =>
              `${p.id} ${p.version ?? '(version unknown)'}${p.enabled ? '' : ' (disabled)'}${p.installPath ? ` at ${p.installPath}` : ''}`,
          )
          .join('; ')}`,
  );
  const inSettings = r.settings.hooks.filter((h) => h.commands.length > 0);
  lines.push(
    inSettings.length === 0
      ? `settings hooks: none in ${r.settings.file}`
      : `settings hooks in ${r.settings.file}: ${r.settings.hooks.map((h) => `${h.event} ${h.commands.length > 1 ? `${h.commands.length}×` : h.state}`).join(', ')}`,
  );
  lines.push(`roots${r.rootsOrigin ? ` (from ${r.rootsOrigin})` : ''}:`);
  for (const x of r.roots)
    lines.push(`  ${x.root}${x.layout ? `  [${x.layout}]` : ''}${x.error ? `  ✗ ${x.error}` : ''}`);
  lines.push(
    `index: ${r.index.file} ${r.index.exists ? `(${(r.index.bytes! / 1024).toFixed(0)} KiB)` : '(not built yet: the dashboard or any command builds it)'}`,
  );
  lines.push(`data directory: ${r.dataDir}`);
  if (r.problems.length === 0) lines.push('healthy: nothing to fix');
  else {
    lines.push(`${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}:`);
    for (const p of r.problems) lines.push(`  ✗ ${p.problem}\n    fix: ${p.fix}`);
  }
  return lines.join('\n');
}
