/**
 * Test support: runs each hook command of a plugin's hooks/hooks.json the way Claude Code
 * does (through the shell, `CLAUDE_PLUGIN_ROOT` set, hook JSON on stdin) over a temp memory
 * root, and returns what the three answers were. Used on this checkout (plugin.test.ts)
 * and on a copy installed with `npm ci --ignore-scripts` (plugin-install.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { childEnv, envFor, MACHINE } from '../service/test-support';

export interface HookCommand {
  event: 'SessionStart' | 'PreToolUse' | 'PostToolUse';
  matcher?: string;
  command: string;
  timeout?: number;
}

/** The command hooks of a hooks.json, in file order. */
export function hookCommands(pluginRoot: string): HookCommand[] {
  const file = JSON.parse(fs.readFileSync(path.join(pluginRoot, 'hooks', 'hooks.json'), 'utf8')) as {
    hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]>;
  };
  const out: HookCommand[] = [];
  for (const [event, groups] of Object.entries(file.hooks))
    for (const g of groups)
      for (const h of g.hooks)
        if (h.type === 'command')
          out.push({
            event: event as HookCommand['event'],
            matcher: g.matcher,
            command: h.command,
            timeout: h.timeout,
          });
  return out;
}

export interface HookRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  // biome-ignore lint/suspicious/noExplicitAny: a hook's JSON answer, read by the tests field by field
  json: any;
}

export interface Drive {
  tmp: string;
  root: string;
  env: NodeJS.ProcessEnv;
  run(event: HookCommand['event'], input: unknown): HookRun;
}

const VERIFIED = `---
name: deploy host
description: where the owner deploys
type: user
trust-level: verified
created-at: 2026-01-10T09:00:00Z
last-verified: 2026-11-01
source-machine: laptop
---
The deploy host runs the release script at night, from the main branch only.
`;

/** A temp root with one verified memory, and a runner for the plugin's hook commands. */
export function driveHooks(pluginRoot: string, tmp: string): Drive {
  const root = path.join(tmp, 'root');
  fs.mkdirSync(path.join(root, 'memories'), { recursive: true });
  fs.writeFileSync(path.join(root, 'memories', 'user_deploy_host.md'), VERIFIED);
  const env = childEnv(envFor(root, path.join(tmp, 'index.sqlite'), tmp), {
    CLAUDE_PLUGIN_ROOT: pluginRoot,
    HOME: tmp,
    MEMTRUST_VERSIONS: 'on',
  });
  const commands = hookCommands(pluginRoot);
  return {
    tmp,
    root,
    env,
    run(event, input) {
      const hook = commands.find((c) => c.event === event);
      if (!hook) throw new Error(`hooks.json has no ${event} command`);
      const t0 = performance.now();
      const r = spawnSync('/bin/sh', ['-c', hook.command], {
        input: typeof input === 'string' ? input : JSON.stringify(input),
        env,
        cwd: tmp,
        encoding: 'utf8',
        timeout: (hook.timeout ?? 60) * 1000,
      });
      const ms = performance.now() - t0;
      return {
        status: r.status,
        stdout: r.stdout,
        stderr: r.stderr,
        ms,
        json: r.stdout.trim() ? JSON.parse(r.stdout) : null,
      };
    },
  };
}

/** Claude Code's hook input for a Write (PreToolUse or PostToolUse). */
export function writeInput(
  event: 'PreToolUse' | 'PostToolUse',
  filePath: string,
  content: string,
  toolUseId: string,
): Record<string, unknown> {
  return {
    session_id: 's-plugin',
    transcript_path: '/tmp/transcript.jsonl',
    cwd: path.dirname(filePath),
    permission_mode: 'default',
    hook_event_name: event,
    tool_name: 'Write',
    tool_use_id: toolUseId,
    tool_input: { file_path: filePath, content },
    ...(event === 'PostToolUse' ? { tool_response: { type: 'create', filePath, success: true } } : {}),
  };
}

export const NEW_MEMORY =
  '---\nname: small commits\ndescription: the owner wants small commits with clear messages\ntype: feedback\n---\nKeep commits small and say what changed in the message.\n**Why:** the owner reviews every commit by hand.\n**How to apply:** one topic per commit.\n';

export const PASSWORD_MEMORY =
  '---\nname: db access\ndescription: how to reach the staging database\ntype: project\n---\nThe staging database password is Xq9v!Lr2#pTz8wKm for the app user.\n**Why:** the migrations need it.\n**How to apply:** use it for staging only.\n';

export const DRIVE_MACHINE = MACHINE;
