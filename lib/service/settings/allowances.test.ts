/**
 * Owner allowances (docs/credentials.md) through the real service: settings and
 * MEMTRUST_ALLOW_NETWORKS reach the validators, the index is re-inspected when
 * they change, the preview counts what a new list would clear, the audit groups
 * hard failures by class, and the reveal reads one value back from the file only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeCtx, openCtx, removeSandbox, sandbox, type Sandbox } from '../test-support';
import { forgetOwnerIdentity } from '../../core/identity';
import { saveAllowances } from './settings-service';
import { previewAllowances } from './allow-preview';
import { planAudit } from '../batches/batch-plan';
import { revealMaskedValue } from '../write/reveal';
import { sha256 } from '../index/inspect';
import { scan } from '../index/scan-service';

const fm = (name: string) =>
  `---\nname: ${name}\ndescription: ${name} notes\ntype: reference\nsource-machine: m\ncreated-at: 2026-01-01T09:00:00Z\ntrust-level: verified\nlast-verified: 2026-11-01\n---\n\n`;

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
  fs.mkdirSync(path.join(sb.root, 'memories'));
  fs.writeFileSync(
    path.join(sb.root, 'memories/reference_lab.md'),
    `${fm('Lab hosts')}The build box is 10.20.30.41 and the printer 10.20.30.42 on the lab VLAN.\n`,
  );
  fs.writeFileSync(
    path.join(sb.root, 'memories/reference_deploy.md'),
    `${fm('Deploy user')}Artifacts land in /home/deploy/releases on the build box.\n`,
  );
  fs.writeFileSync(
    path.join(sb.root, 'memories/reference_nas.md'),
    `${fm('NAS')}The NAS admin password: Tr1cky-Pa55x (rotate it yearly).\n`,
  );
  forgetOwnerIdentity();
});
afterEach(() => {
  forgetOwnerIdentity();
  removeSandbox(sb);
});

const secretKeys = (ctx: ReturnType<typeof openCtx>) =>
  (
    ctx.handle.sqlite
      .prepare(
        `SELECT m.filename AS f, f.class AS c FROM findings f JOIN entries m ON m.key = f.key WHERE f."check" = 'secret' ORDER BY m.filename, f.line`,
      )
      .all() as { f: string; c: string }[]
  ).map((r) => `${r.f}:${r.c}`);

describe('owner allowances', () => {
  it('preview counts what the new lists clear; saving them clears the findings in the index', () => {
    let ctx = openCtx(sb);
    expect(secretKeys(ctx)).toEqual([
      'reference_deploy.md:personal',
      'reference_lab.md:personal',
      'reference_lab.md:personal',
      'reference_nas.md:credential',
    ]);
    expect(previewAllowances(ctx, { allowNetworks: ['10.20.30.0/24'], allowHomeUsers: ['deploy'] })).toEqual({
      cleared: 3,
      added: 0,
      filesClean: 2,
      checked: 2,
    });
    expect(previewAllowances(ctx, { allowNetworks: ['10.20.31.0/24'], allowHomeUsers: [] })).toMatchObject({
      cleared: 0,
      filesClean: 0,
    });
    expect(saveAllowances({ allowNetworks: ['10.20.30.0/99'], allowHomeUsers: [] }, sb.env)).toMatchObject({
      ok: false,
      code: 'bad-network',
    });
    expect(saveAllowances({ allowNetworks: ['10.20.30.0/24'], allowHomeUsers: ['deploy'] }, sb.env).ok).toBe(true);
    closeCtx(sb);
    forgetOwnerIdentity();
    ctx = openCtx(sb); // files unchanged: only the rules signature makes the scan look again
    expect(secretKeys(ctx)).toEqual(['reference_nas.md:credential']);
    // Removing an entry brings its findings back, and the preview says so.
    expect(previewAllowances(ctx, { allowNetworks: [], allowHomeUsers: ['deploy'] })).toMatchObject({
      cleared: 0,
      added: 2,
    });
    closeCtx(sb);
  });

  it('MEMTRUST_ALLOW_NETWORKS replaces the saved list', () => {
    saveAllowances({ allowNetworks: ['192.168.0.0/16'], allowHomeUsers: [] }, sb.env);
    sb.env.MEMTRUST_ALLOW_NETWORKS = '10.0.0.0/8 fd00::/8';
    const ctx = openCtx(sb);
    expect(ctx.owner().allowNetworks).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(secretKeys(ctx)).toEqual(['reference_deploy.md:personal', 'reference_nas.md:credential']);
    closeCtx(sb);
  });

  it("the audit plan carries each file's finding classes", () => {
    const ctx = openCtx(sb);
    const plan = planAudit(ctx);
    const classes = (name: string) =>
      [
        ...new Set(
          plan.files
            .find((f) => f.memory === name)
            ?.findings.map((x) => x.class)
            .filter(Boolean),
        ),
      ].sort();
    expect(classes('reference_nas.md')).toEqual(['credential']);
    expect(classes('reference_lab.md')).toEqual(['personal']);
    expect(plan.groups.some((g) => g.class === 'credential') && plan.groups.some((g) => g.class === 'personal')).toBe(
      true,
    );
    closeCtx(sb);
  });
});

describe('reveal', () => {
  it('gives one masked value back, from the file, only for the bytes the page showed', () => {
    const ctx = openCtx(sb);
    const file = path.join(sb.root, 'memories/reference_nas.md');
    const body = (
      ctx.handle.sqlite.prepare(`SELECT body FROM entries WHERE filename = 'reference_nas.md'`).get() as {
        body: string;
      }
    ).body;
    expect(body).toContain('password: ⟦credential #1 · 12 chars⟧ (rotate it yearly)');
    const source = ctx.sources[0]!.id;
    const sha = sha256(fs.readFileSync(file));
    expect(revealMaskedValue(ctx, { filename: 'reference_nas.md', sourceId: source, n: 1, expectSha: sha })).toEqual({
      ok: true,
      value: 'Tr1cky-Pa55x',
    });
    expect(
      revealMaskedValue(ctx, { filename: 'reference_nas.md', sourceId: source, n: 2, expectSha: sha }),
    ).toMatchObject({ ok: false, code: 'no-such-mask' });
    expect(
      revealMaskedValue(ctx, { filename: '../reference_nas.md', sourceId: source, n: 1, expectSha: sha }),
    ).toMatchObject({ ok: false, code: 'not-found' });
    fs.appendFileSync(file, 'one more line\n');
    expect(
      revealMaskedValue(ctx, { filename: 'reference_nas.md', sourceId: source, n: 1, expectSha: sha }),
    ).toMatchObject({ ok: false, code: 'changed' });
    // A symlinked memory file is refused before anything is read.
    const link = path.join(sb.root, 'memories/reference_link.md');
    fs.symlinkSync(file, link);
    scan(ctx);
    const r = (() => {
      try {
        return revealMaskedValue(ctx, {
          filename: 'reference_link.md',
          sourceId: source,
          n: 1,
          expectSha: sha256(fs.readFileSync(file)),
        });
      } catch (e) {
        return { ok: false, code: (e as { code?: string }).code ?? 'thrown' };
      }
    })();
    expect(r.ok).toBe(false);
    closeCtx(sb);
  });
});
