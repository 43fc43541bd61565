/**
 * The layout's own facts on a record's page (RecordView.detail, docs/records-pages.md):
 * canonical — target, its re-verify result and the staleness reason; governed —
 * evidence, links, supersede chain and codeclone's command per action; consolidation —
 * statement, evidence, expiry and source step. Every text masked by the caller's masker.
 */
import type { RecordView } from '@/lib/service/records/read';
import { CopyCommand } from './copy-command';
import { MaskedText } from './masked-text';
import { detailList, detailString, detailText, type Masker } from './record-view';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

function List({ items, label, mask, empty }: { items: unknown[]; label: string; mask: Masker; empty: string }) {
  if (items.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{empty}</p>;
  return (
    <ul aria-label={label} className="list-disc space-y-0.5 pl-5 text-sm">
      {items.map((x, i) => (
        <li key={i} className="break-words">
          <MaskedText text={detailText(x, mask)} />
        </li>
      ))}
    </ul>
  );
}

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function Canonical({ r, mask }: { r: RecordView; mask: Masker }) {
  const d = r.detail;
  const check = obj(d.targetCheck);
  const stale = obj(d.staleness);
  const target = detailString(d.target);
  const problems = detailList(check.problems);
  return (
    <dl className="space-y-3">
      <Row label="Category · shape · place">
        {[detailString(d.category), detailString(d.shape), detailString(d.place)].filter(Boolean).join(' · ') || '—'}
      </Row>
      {detailString(d.claim) ? (
        <Row label="Claim">
          <MaskedText text={mask(detailString(d.claim)!)} />
        </Row>
      ) : null}
      <Row label="Target">
        {target ? (
          <code className="font-mono text-xs">
            <MaskedText text={mask(target)} />
          </code>
        ) : (
          'none'
        )}
      </Row>
      <Row label="Re-verify">
        {d.targetCheck === undefined || d.targetCheck === null ? (
          'not checked'
        ) : check.ok ? (
          <span className="text-emerald-800 dark:text-emerald-300" data-verify="ok">
            the target re-verifies
            {detailList(check.checked).length
              ? ` (${detailList(check.checked)
                  .map((x) => detailText(x, mask))
                  .join(', ')})`
              : ''}
          </span>
        ) : (
          <span data-verify="failed">
            <span className="font-medium text-orange-800 dark:text-orange-300">suspect</span>
            {problems.length ? (
              <ul className="list-disc pl-5">
                {problems.map((p, i) => (
                  <li key={i}>
                    <MaskedText text={detailText(p, mask)} />
                  </li>
                ))}
              </ul>
            ) : null}
          </span>
        )}
        {detailList(check.ignored).length ? (
          <span className="block text-xs text-slate-600 dark:text-slate-400">
            Skipped (gitignored):{' '}
            {detailList(check.ignored)
              .map((x) => detailText(x, mask))
              .join(', ')}
          </span>
        ) : null}
      </Row>
      <Row label="Staleness">
        <span data-staleness={stale.stale ? 'stale' : 'fresh'}>
          {stale.stale ? <span className="font-medium text-amber-800 dark:text-amber-300">stale: </span> : null}
          {detailString(stale.reason) ? (
            <MaskedText text={mask(detailString(stale.reason)!)} />
          ) : stale.stale ? (
            ''
          ) : (
            'not stale'
          )}
        </span>
      </Row>
    </dl>
  );
}

function Governed({ r, mask }: { r: RecordView; mask: Masker }) {
  const d = r.detail;
  const commands = Object.entries(obj(d.commands)).filter(([, v]) => typeof v === 'string') as [string, string][];
  return (
    <div className="space-y-4">
      <p role="note" className="rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-950 dark:bg-sky-950 dark:text-sky-100">
        Read-only: codeclone owns this store and memtrust never writes it. Run codeclone&apos;s own command to change
        the record; this page refreshes when the store changes.
      </p>
      {commands.length ? (
        <div role="group" className="space-y-2" aria-label="codeclone commands">
          {commands.map(([action, cmd]) => (
            <div key={action}>
              <p className="mb-1 text-xs font-medium text-slate-600 dark:text-slate-300">{action}</p>
              <CopyCommand label={action} command={cmd} />
            </div>
          ))}
        </div>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          codeclone allows no action on a record in this state.
        </p>
      )}
      <dl className="space-y-3">
        <Row label="Status · confidence · origin">
          {[detailString(d.status), detailString(d.confidence), detailString(d.origin)].filter(Boolean).join(' · ') ||
            '—'}
        </Row>
        {detailString(d.staleReason) ? (
          <Row label="Stale reason">
            <MaskedText text={mask(detailString(d.staleReason)!)} />
          </Row>
        ) : null}
        <Row label="Evidence">
          <List items={detailList(d.evidence)} label="Evidence" mask={mask} empty="No evidence recorded." />
        </Row>
        <Row label="Links">
          <List items={detailList(d.links)} label="Links" mask={mask} empty="No links." />
        </Row>
        <Row label="Supersede chain">
          <List
            items={detailList(d.chain).length > 1 ? detailList(d.chain) : []}
            label="Supersede chain"
            mask={mask}
            empty="Not part of a supersede chain."
          />
        </Row>
      </dl>
    </div>
  );
}

function Consolidation({ r, mask }: { r: RecordView; mask: Masker }) {
  const d = r.detail;
  return (
    <dl className="space-y-3">
      <Row label="Statement">
        <span data-statement="">
          <MaskedText text={mask(detailString(d.statement) ?? r.title)} />
        </span>
      </Row>
      <Row label="Evidence">
        <List
          items={detailList(d.evidence)}
          label="Evidence"
          mask={mask}
          empty="No evidence: breaks the write rules."
        />
      </Row>
      <Row label="Type · confidence · sensitivity">
        {[detailString(d.type), detailString(d.confidence), detailString(d.sensitivity)].filter(Boolean).join(' · ') ||
          '—'}
      </Row>
      <Row label="Status">{detailString(d.status) ?? '—'}</Row>
      <Row label="Expires">{detailString(d.expiresAt) ?? 'never'}</Row>
      <Row label="Source step">
        {detailString(d.sourceStep) ? (
          <MaskedText text={mask(detailString(d.sourceStep)!)} />
        ) : (
          'none: breaks the write rules'
        )}
      </Row>
      {detailString(d.file) ? <Row label="File">{detailString(d.file)}</Row> : null}
    </dl>
  );
}

export function LayoutDetail({ record, mask }: { record: RecordView; mask: Masker }) {
  if (record.layout === 'canonical') return <Canonical r={record} mask={mask} />;
  if (record.layout === 'governed') return <Governed r={record} mask={mask} />;
  if (record.layout === 'consolidation') return <Consolidation r={record} mask={mask} />;
  return (
    <dl className="space-y-2">
      {Object.entries(record.detail).map(([k, v]) => (
        <Row key={k} label={k}>
          <MaskedText text={detailText(v, mask)} />
        </Row>
      ))}
    </dl>
  );
}
