/**
 * The contract every registered layout adapter keeps (docs/records.md), run for EVERY
 * adapter of LAYOUT_ADAPTERS — the two file layouts included — against the fixture its folder writes:
 * `lib/sources/<layout>/test-fixtures.ts` exports `writeContractFixture(dir)` (the
 * configured root is `dir`) and may export `contractPlanOptions` (per action, the
 * PlanContext options it needs). Adding a layout needs no edit here.
 *
 * Edits are applied by this file's own in-memory applier, independent of any adapter. A
 * file layout (`adapter.files`) plans nothing: every plan is refused, naming the file
 * transitions its memories change through (lib/sources/file-layout.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LayoutAdapter, PlanContext } from './layout-adapter';
import type { FileEdit, LayoutRead } from './record';
import { LAYOUT_ADAPTERS } from './registry';
import { FILE_TRANSITION_PATH } from './file-layout';

const NOW = new Date('2026-11-23T12:00:00Z');
const SOURCE = 'src-contract';
const temps: string[] = [];
afterAll(() => {
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true });
}, 60_000);

function drop(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  temps.splice(temps.indexOf(dir), 1);
}

function tmp(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `memtrust-contract-${prefix}-`));
  temps.push(d);
  return d;
}

interface FixtureModule {
  writeContractFixture: (dir: string) => void | Promise<void>;
  contractPlanOptions?: Record<string, Record<string, unknown>>;
  /** Problems the fixture plants on purpose (a bad line, a CRLF note): read reports exactly these, before and after every edit. */
  contractProblems?: number;
}

async function fixtureFor(layout: string): Promise<FixtureModule> {
  return (await import(`./${layout}/test-fixtures.ts`)) as FixtureModule;
}

/** Every file under `dir` (the `.git` folder aside) → sha256 of its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
      else out.set(`${rel}${e.name}`, crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  walk(dir, '');
  return out;
}

function reader(root: string): (file: string) => Buffer | null {
  return (file) => {
    try {
      return fs.readFileSync(path.join(root, file));
    } catch {
      return null;
    }
  };
}

/** Line starts of `bytes` (split on `\n`, terminators kept with their line) plus the end. */
function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1))
    if (i + 1 < bytes.length) starts.push(i + 1);
  if (bytes.length === 0) return [0];
  starts.push(bytes.length);
  return starts;
}

/**
 * Applies edits in memory, checking every `expect` against the current bytes. Returns
 * path → bytes (null: removed) for the files the edits touch.
 */
function applyInMemory(read: (f: string) => Buffer | null, edits: FileEdit[]): Map<string, Buffer | null> {
  const state = new Map<string, Buffer | null>();
  const get = (f: string) => (state.has(f) ? state.get(f)! : read(f));
  for (const e of edits) {
    switch (e.kind) {
      case 'replace-lines': {
        const cur = get(e.file);
        expect(cur, `${e.file} exists for a line edit`).not.toBeNull();
        const starts = lineStarts(cur!);
        const lines = cur!.length === 0 ? 0 : starts.length - 1;
        expect(
          e.line >= 1 && e.line <= lines + 1 && e.line + e.count - 1 <= lines,
          `${e.file}: lines ${e.line}+${e.count} in range (of ${lines})`,
        ).toBe(true);
        const start = e.line <= lines ? starts[e.line - 1]! : cur!.length;
        const end = e.count ? starts[e.line + e.count - 1]! : start;
        expect(
          cur!.subarray(start, end).equals(e.expect),
          `${e.file}: expect bytes of lines ${e.line}+${e.count} match the file`,
        ).toBe(true);
        state.set(e.file, Buffer.concat([cur!.subarray(0, start), e.bytes, cur!.subarray(end)]));
        break;
      }
      case 'write': {
        const cur = get(e.file);
        if (e.expect === null) expect(cur, `${e.file} must not exist yet`).toBeNull();
        else expect(cur?.equals(e.expect), `${e.file}: expect bytes match`).toBe(true);
        state.set(e.file, e.bytes);
        break;
      }
      case 'remove': {
        const cur = get(e.file);
        expect(cur?.equals(e.expect), `${e.file}: expect bytes match before removal`).toBe(true);
        state.set(e.file, null);
        break;
      }
      case 'move': {
        const src = get(e.from);
        expect(src, `${e.from} exists to move`).not.toBeNull();
        expect(get(e.to), `${e.to} is free`).toBeNull();
        state.set(e.to, src);
        state.set(e.from, null);
        break;
      }
    }
  }
  return state;
}

function editedFiles(edits: FileEdit[]): string[] {
  return edits.flatMap((e) => (e.kind === 'move' ? [e.from, e.to] : [e.file]));
}

function copyFixture(from: string, prefix: string): string {
  const to = tmp(prefix);
  fs.cpSync(from, to, { recursive: true });
  return to;
}

function readOk(adapter: LayoutAdapter, root: string): LayoutRead {
  return adapter.read(root, { sourceId: SOURCE, now: NOW });
}

describe.each(LAYOUT_ADAPTERS.map((a) => [a.layout, a] as const))('layout adapter contract: %s', (layout, adapter) => {
  let root = '';
  let first: LayoutRead;
  let mod: FixtureModule;

  const setup = async () => {
    if (root) return;
    mod = await fixtureFor(layout);
    root = tmp(layout);
    await mod.writeContractFixture(root);
    first = readOk(adapter, root);
  };

  it('detect finds the fixture, and read gives records with only the problems the fixture planted', async () => {
    await setup();
    const d = adapter.detect(root);
    expect(d, 'detect(root)').not.toBeNull();
    expect(d!.shape).toBeTruthy();
    expect(first.records.length).toBeGreaterThan(0);
    expect(first.problems).toHaveLength(mod.contractProblems ?? 0);
    expect(adapter.detect(tmp('empty'))).toBeNull();
  });

  it('ids are <sourceId>:<key>, keys are unique, every verb is allowed or refused with a reason', async () => {
    await setup();
    const keys = new Set<string>();
    for (const r of first.records) {
      expect(r.layout).toBe(layout);
      expect(r.id).toBe(`${SOURCE}:${r.key}`);
      expect(keys.has(r.key), `duplicate key ${r.key}`).toBe(false);
      keys.add(r.key);
      expect(() => JSON.stringify(r.detail)).not.toThrow();
      expect(JSON.parse(JSON.stringify(r.detail))).toEqual(r.detail);
      for (const v of r.actions) expect(adapter.actions, `${r.key}: ${v} is a verb of the layout`).toContain(v);
      for (const v of adapter.actions) {
        const allowed = r.actions.includes(v);
        const why = r.refused[v];
        expect(
          allowed || (typeof why === 'string' && why.length > 0),
          `${r.key}: ${v} is allowed or refused with a reason`,
        ).toBe(true);
        expect(allowed && why !== undefined, `${r.key}: ${v} both allowed and refused`).toBe(false);
      }
      const loc = r.location;
      if (!adapter.readOnly)
        expect(fs.existsSync(path.join(root, loc.file)), `${r.key}: ${loc.file} is relative to the root`).toBe(true);
    }
  });

  it('changeToken is stable while nothing changes', async () => {
    await setup();
    const a = adapter.changeToken(root);
    readOk(adapter, root);
    expect(adapter.changeToken(root)).toBe(a);
  });

  it('plans: allowed actions give edits that apply, keep every other byte and re-read to the same key; refused ones refuse', {
    timeout: 60_000,
  }, async () => {
    await setup();
    const before = snapshot(root);
    let applied = 0;
    for (const r of first.records) {
      for (const action of adapter.actions) {
        const ctx: PlanContext = {
          now: NOW,
          read: reader(root),
          reason: 'contract check',
          options: mod.contractPlanOptions?.[action] ?? {},
        };
        const res = adapter.plan(r, action, ctx);
        expect(snapshot(root), `${r.key} ${action}: plan wrote nothing`).toEqual(before);
        if (adapter.files) {
          expect(res, `${r.key} ${action}: a file layout refuses, naming the file transitions`).toMatchObject({
            ok: false,
            reason: expect.stringContaining(FILE_TRANSITION_PATH),
          });
          continue;
        }
        if (adapter.readOnly || !r.actions.includes(action)) {
          expect(res.ok, `${r.key} ${action}: refused`).toBe(false);
          if (!res.ok)
            expect(res.reason.length > 0 || !!res.command, `${r.key} ${action}: names a reason or a command`).toBe(
              true,
            );
          continue;
        }
        expect(res.ok, `${r.key} ${action}: ${res.ok ? '' : res.reason}`).toBe(true);
        if (!res.ok) continue;
        const { edits, files } = res.plan;
        expect(edits.length, `${r.key} ${action}: has edits`).toBeGreaterThan(0);
        expect(res.plan.summary).toBeTruthy();
        for (const f of editedFiles(edits)) expect(files, `${r.key} ${action}: plan.files names ${f}`).toContain(f);
        // Line edits of the record's own file stay inside its lines (or insert right after them).
        const own = edits.filter(
          (e): e is Extract<FileEdit, { kind: 'replace-lines' }> =>
            e.kind === 'replace-lines' && e.file === r.location.file,
        );
        const bottomUp = own.every((e, i) => i === 0 || e.line <= own[i - 1]!.line);
        if (r.location.line > 0 && bottomUp) {
          for (const e of own) {
            expect(e.line, `${r.key} ${action}: edit starts inside the entry`).toBeGreaterThanOrEqual(r.location.line);
            expect(
              e.line + Math.max(e.count, 1) - 1,
              `${r.key} ${action}: edit ends inside the entry`,
            ).toBeLessThanOrEqual(r.location.endLine + (e.count === 0 ? 1 : 0));
          }
        }
        const result = applyInMemory(reader(root), edits);
        // Write the result into a copy and read it again.
        const copy = copyFixture(root, `${layout}-apply`);
        const tokenBefore = adapter.changeToken(copy);
        for (const [f, bytes] of result) {
          const p = path.join(copy, f);
          if (bytes === null) fs.rmSync(p, { force: true });
          else {
            fs.mkdirSync(path.dirname(p), { recursive: true });
            fs.writeFileSync(p, bytes);
          }
        }
        const after = snapshot(copy);
        for (const [f, h] of before)
          if (!result.has(f)) expect(after.get(f), `${r.key} ${action}: ${f} untouched`).toBe(h);
        for (const f of after.keys())
          if (!before.has(f)) expect(result.has(f), `${r.key} ${action}: new file ${f} comes from an edit`).toBe(true);
        expect(adapter.changeToken(copy), `${r.key} ${action}: the token moves`).not.toBe(tokenBefore);
        const again = readOk(adapter, copy);
        expect(again.problems, `${r.key} ${action}: re-read with no new problem`).toEqual(first.problems);
        expect(
          again.records.map((x) => x.key),
          `${r.key} ${action}: the record keeps its key`,
        ).toContain(r.key);
        drop(copy);
        applied++;
      }
    }
    if (!adapter.readOnly && !adapter.files)
      expect(applied, 'some action applies to some record of the fixture').toBeGreaterThan(0);
  });

  it('a read-only adapter never returns edits and names a command or a reason', async () => {
    await setup();
    if (!adapter.readOnly) return;
    let commands = 0;
    for (const r of first.records) {
      expect(r.actions.every((a) => adapter.actions.includes(a))).toBe(true);
      for (const action of [...adapter.actions, 'no-such-verb']) {
        const res = adapter.plan(r, action, { now: NOW, read: reader(root), reason: 'contract check' });
        expect(res.ok).toBe(false);
        if (res.ok) continue;
        expect(res.reason.length > 0 || !!res.command).toBe(true);
        if (r.actions.includes(action)) {
          expect(res.command, `${r.key} ${action}: the owner's command line`).toBeTruthy();
          commands++;
        }
      }
    }
    expect(commands, 'the fixture has records with an owner command').toBeGreaterThan(0);
  });

  it('read never throws on a damaged copy: a truncated file and garbage are reported', {
    timeout: 60_000,
  }, async () => {
    await setup();
    const files = [...new Set(first.records.map((r) => r.location.file))].sort();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const size = fs.statSync(path.join(root, file)).size;
      // Truncated to half: never a throw. A cut text file may still be valid text (a
      // shorter heading), but when every record of the file vanished a problem says so.
      const cut = copyFixture(root, `${layout}-cut`);
      fs.truncateSync(path.join(cut, file), Math.floor(size / 2));
      let r: LayoutRead | undefined;
      expect(() => (r = readOk(adapter, cut)), `${file} truncated`).not.toThrow();
      expect(Array.isArray(r!.records) && Array.isArray(r!.problems)).toBe(true);
      if (!r!.records.some((x) => x.location.file === file)) {
        expect(r!.problems.length, `${file} truncated: its records are gone, so a problem is named`).toBeGreaterThan(0);
      }
      // Garbage (binary bytes): a problem naming the file.
      const bad = copyFixture(root, `${layout}-garbage`);
      fs.writeFileSync(
        path.join(bad, file),
        Buffer.concat([Buffer.from('\x00\xff\xfe garbage \x00'), crypto.randomBytes(512)]),
      );
      let g: LayoutRead | undefined;
      expect(() => (g = readOk(adapter, bad)), `${file} garbage`).not.toThrow();
      expect(g!.problems.length, `${file} garbage: a problem is reported`).toBeGreaterThan(0);
      expect(
        g!.problems.some((p) => p.file.includes(file) || file.includes(p.file)),
        `${file} garbage: the problem names the file (${JSON.stringify(g!.problems)})`,
      ).toBe(true);
      drop(cut);
      drop(bad);
    }
  });
});
