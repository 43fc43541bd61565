/**
 * The plugin's files against Claude Code's documented formats (docs/install.md cites them):
 * `.claude-plugin/plugin.json` (manifest reference), `hooks/hooks.json` (plugin hooks:
 * `{ description?, hooks: { Event: [{ matcher?, hooks: [{ type, command, timeout? }] }] } }`),
 * `.claude-plugin/marketplace.json` (marketplace reference) and `commands/*.md`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT } from '../service/test-support';
import { HOOK_EVENTS, WRITE_MATCHER } from '../hooks/install-entries';

const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(PROJECT, rel), 'utf8'));
const pkg = read('package.json') as { version: string; description: string };
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The manifest's documented top-level fields (metadata and component paths). */
const MANIFEST_FIELDS = [
  'name',
  'version',
  'description',
  'author',
  'homepage',
  'repository',
  'license',
  'keywords',
  'commands',
  'agents',
  'skills',
  'hooks',
  'mcpServers',
  'lspServers',
  'outputStyles',
  'userConfig',
];
/** Hook events Claude Code documents; ours must be among them. */
const EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Notification',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
];

describe('.claude-plugin/plugin.json', () => {
  const m = read('.claude-plugin/plugin.json');

  it('has the documented metadata: kebab-case name, the package version, description, author, homepage', () => {
    expect(Object.keys(m).every((k) => MANIFEST_FIELDS.includes(k))).toBe(true);
    expect(m.name).toBe('memtrust');
    expect(m.name).toMatch(KEBAB);
    expect(m.version).toMatch(SEMVER);
    expect(m.version).toBe(pkg.version);
    expect(typeof m.description).toBe('string');
    expect(m.description.length).toBeGreaterThan(20);
    expect(typeof m.author?.name).toBe('string');
    expect(() => new URL(m.homepage)).not.toThrow();
  });

  it('does not name hooks/hooks.json itself: Claude Code loads it by default, a second mention loads it twice', () => {
    expect(m.hooks).toBeUndefined();
    expect(m.commands).toBeUndefined();
  });
});

describe('hooks/hooks.json', () => {
  const h = read('hooks/hooks.json');

  it('is the plugin format: a description and a hooks object keyed by documented events', () => {
    expect(Object.keys(h).sort()).toEqual(['description', 'hooks']);
    expect(Object.keys(h.hooks).every((e) => EVENTS.includes(e))).toBe(true);
    expect(Object.keys(h.hooks).sort()).toEqual([...HOOK_EVENTS].sort());
  });

  it('each event has one command hook run through the plugin root variable, naming a file that exists', () => {
    for (const event of HOOK_EVENTS) {
      const groups = h.hooks[event];
      expect(groups).toHaveLength(1);
      const [g] = groups;
      expect(Object.keys(g).every((k) => ['matcher', 'hooks'].includes(k))).toBe(true);
      expect(g.hooks).toHaveLength(1);
      const [hook] = g.hooks;
      expect(Object.keys(hook).every((k) => ['type', 'command', 'timeout'].includes(k))).toBe(true);
      expect(hook.type).toBe('command');
      expect(hook.timeout).toBeGreaterThan(0);
      const m = /^node "\$\{CLAUDE_PLUGIN_ROOT\}\/([^"]+)"$/.exec(hook.command);
      expect(m, hook.command).not.toBeNull();
      expect(fs.existsSync(path.join(PROJECT, m![1]!))).toBe(true);
    }
  });

  it('the write hooks match Write|Edit|MultiEdit; SessionStart has no tool matcher', () => {
    expect(h.hooks.PreToolUse[0].matcher).toBe(WRITE_MATCHER);
    expect(h.hooks.PostToolUse[0].matcher).toBe(WRITE_MATCHER);
    expect(WRITE_MATCHER).toBe('Write|Edit|MultiEdit');
    expect(h.hooks.SessionStart[0].matcher).toBeUndefined();
  });
});

describe('.claude-plugin/marketplace.json', () => {
  const mk = read('.claude-plugin/marketplace.json');

  it('has a name, an owner with a name, and lists the plugin from this repository', () => {
    expect(mk.name).toMatch(KEBAB);
    expect(typeof mk.owner?.name).toBe('string');
    expect(Array.isArray(mk.plugins)).toBe(true);
    const entry = mk.plugins.find((p: { name: string }) => p.name === 'memtrust');
    expect(entry).toBeDefined();
    // A relative source starts with ./ and resolves from the marketplace root (the folder holding .claude-plugin/).
    expect(entry.source).toMatch(/^\.\//);
    const pluginDir = path.resolve(PROJECT, entry.source);
    expect(read(path.relative(PROJECT, path.join(pluginDir, '.claude-plugin', 'plugin.json'))).name).toBe(entry.name);
    expect(entry.version).toBe(pkg.version);
  });

  it('so the install line is /plugin install memtrust@memtrust', () => {
    expect(`${mk.plugins[0].name}@${mk.name}`).toBe('memtrust@memtrust');
  });
});

describe('commands/memtrust.md (/memtrust)', () => {
  const text = fs.readFileSync(path.join(PROJECT, 'commands', 'memtrust.md'), 'utf8');

  it('has frontmatter with a description and the Bash it may run, and runs memtrust open', () => {
    const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
    expect(fm).not.toBeNull();
    expect(fm![1]).toMatch(/^description: \S.+$/m);
    expect(fm![1]).toMatch(/^allowed-tools: .*Bash\(memtrust open/m);
    expect(text).toContain('memtrust open');
  });
});
