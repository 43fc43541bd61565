/**
 * A safe first hour on a new root (CONTRACT §3, docs/transition-ui.md "First hour"): what
 * the overview needs to offer the order that works — allow your networks, then the
 * back-fill preview, then review — and to keep "Run audit" from being the primary action
 * while it would quarantine more than a quarter of a root. All from the index (a few
 * grouped counts); no file is read.
 */
import { FILE_ENTRY } from '../../../db/queries/entry-kind';
import type { ServiceContext } from '../context';
import { inboxTotal } from '../../../db/queries/inbox';
import { syncRecordIndex } from '../records/read';
import { memo } from '../../../db/queries/memo';
import type { OwnerIdentity } from '../../validators/types';
import { memoryFindingWhere } from '../../../db/queries/finding-filter';

export interface AuditShare {
  source: string;
  root: string;
  /** The project the root belongs to (a Claude Code project's path), else null: what the page names it by. */
  project: string | null;
  /** Live memories (memories/, or the folder itself for Claude Code): what the quarter is of. */
  memories: number;
  /** Memories the audit would quarantine now (its dry run, from the stored findings). */
  quarantine: number;
  /** More than a quarter (`quarantine × 4 > memories`, lib/trust/batch-rules.ts). */
  heavy: boolean;
}

export interface FirstHour {
  /** Memories holding a private address that no allowed network covers. */
  privateAddresses: number;
  /** Networks the owner allowed (settings or MEMTRUST_ALLOW_NETWORKS). */
  allowedNetworks: number;
  /** Memories without a trust-level (back-fill candidates). */
  backfill: number;
  /** The review inbox's count: what needs a decision now. */
  review: number;
  /**
   * Memories holding a credential in clear, in any tier. The inbox leaves an inferred memory out
   * while it is observed (its first 7 days), which on a newly found folder is every memory, so
   * the first hour names these itself.
   */
  credentials: number;
  audit: AuditShare[];
  /** Some root would lose more than a quarter of its memories to the audit. */
  auditHeavy: boolean;
  /** Show the numbered steps: something to back-fill, an audit that would be heavy, or a credential in clear. */
  show: boolean;
}

/** Secret codes the audit does not demote for, given what is known of the owner (audit-run.ts onlyOwnerGaps). */
function ownerGaps(owner: OwnerIdentity): string[] {
  const gaps: string[] = [];
  if (owner.emails.length === 0) gaps.push('secret.email');
  if (!owner.homeUser) gaps.push('secret.home-path');
  return gaps;
}

/**
 * The audit's dry run per root, counted in SQL: live memories with validate exit 1 or 2, or a
 * secret finding other than the owner gaps — the rule runAudit applies file by file. Shaped
 * for 100k rows (the rows carry bodies, so no scan of the table): live memories are counted
 * on the covering `entries_inbox` index (tier, source), and the candidates come from
 * `entries_overview` (tier, validate_exit, secret_exit), reading only the rows that fail.
 */
export function auditShares(ctx: ServiceContext): AuditShare[] {
  const gaps = ownerGaps(ctx.owner());
  const sqlite = ctx.handle.sqlite;
  const notGap = gaps.length ? `AND f.code NOT IN (${gaps.map(() => '?').join(', ')})` : '';
  const { live, failing } = memo(sqlite, `first-hour-audit:${gaps.join(',')}`, () => ({
    live: sqlite
      .prepare(
        `SELECT source, count(*) AS n FROM entries INDEXED BY entries_inbox
         WHERE tier IN ('verified', 'inferred') AND ${FILE_ENTRY} GROUP BY source`,
      )
      .all() as { source: string; n: number }[],
    failing: sqlite
      .prepare(
        `SELECT m.source AS source, count(*) AS n FROM entries m INDEXED BY entries_overview
         WHERE m.tier IN ('verified', 'inferred') AND (m.validate_exit IN (1, 2) OR m.secret_exit = 1)
           AND m.location = 'memories' AND m.error IS NULL AND m.${FILE_ENTRY}
           AND (m.validate_exit IN (1, 2) OR EXISTS (
             SELECT 1 FROM findings f INDEXED BY findings_key WHERE f.key = m.key AND f."check" = 'secret' ${notGap}))
         GROUP BY m.source`,
      )
      .all(...gaps) as { source: string; n: number }[],
  }));
  const quarantine = new Map(failing.map((r) => [r.source, r.n]));
  const sources = new Map(ctx.sources.map((s) => [s.id, s]));
  return live
    .filter((r) => sources.has(r.source))
    .map((r) => {
      const q = quarantine.get(r.source) ?? 0;
      const s = sources.get(r.source)!;
      return {
        source: r.source,
        root: s.root,
        project: s.project?.path ?? null,
        memories: r.n,
        quarantine: q,
        heavy: q * 4 > r.n,
      };
    });
}

export function firstHour(ctx: ServiceContext): FirstHour {
  const sqlite = ctx.handle.sqlite;
  const owner = ctx.owner();
  // A page filtered by project (scopedContext) counts that project's roots only, as its audit shares do.
  const ids = ctx.config.projectFilter === undefined ? undefined : ctx.sources.map((s) => s.id);
  const inScope = ids ? `AND m.source IN (${ids.map((_, i) => `@src${i}`).join(', ')})` : '';
  const scopeParams = Object.fromEntries((ids ?? []).map((id, i) => [`src${i}`, id]));
  const counts = memo(sqlite, `first-hour-counts:${ids ? ids.join(',') : '*'}`, () => {
    const count = (sql: string, params: Record<string, unknown> = {}) =>
      (sqlite.prepare(sql).get({ ...params, ...scopeParams }) as { n: number }).n;
    // The tier tables' "Finding class: credential" rule, so the step's count is the list it links to.
    const cred = memoryFindingWhere(sqlite, { cls: 'credential' });
    return {
      privateAddresses: count(
        `SELECT count(DISTINCT f.key) AS n FROM findings f WHERE f.code = 'secret.private-ip'${
          ids ? ` AND f.key IN (SELECT m.key FROM entries m WHERE 1 ${inScope})` : ''
        }`,
      ),
      backfill: count(`SELECT count(*) AS n FROM entries m WHERE m.needs_backfill = 1 AND m.${FILE_ENTRY} ${inScope}`),
      credentials: count(
        `SELECT count(*) AS n FROM entries m WHERE m.${FILE_ENTRY} AND ${cred.parts.join(' AND ')} ${inScope}`,
        cred.params,
      ),
    };
  });
  // What /review counts: memories and the record roots' records (docs/review-inbox.md "Records in the inbox").
  const review = inboxTotal(
    sqlite,
    { queue: 'inbox', recordSources: syncRecordIndex(ctx), ...(ids ? { sources: ids } : {}) },
    ctx.now(),
  );
  const audit = auditShares(ctx);
  const auditHeavy = audit.some((a) => a.heavy);
  return {
    ...counts,
    allowedNetworks: owner.allowNetworks?.length ?? 0,
    review,
    audit,
    auditHeavy,
    show: counts.backfill > 0 || auditHeavy || counts.credentials > 0,
  };
}
