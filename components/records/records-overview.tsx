import { flagQueue, flagWord } from '@/db/queries/record-rows';
import { StatCard, Section } from '@/components/ui/stat-card';
import type { RecordCounts } from '@/lib/service/records/read';
import { RECORD_FLAGS, type RecordFlag } from '@/lib/sources/record';

/** What each flag means on a card (lib/sources/record.ts has the rules). */
const FLAG_HINTS: Record<RecordFlag, string> = {
  stale: 'too old, or too many commits since verified',
  suspect: 'what it points at is gone',
  conflict: 'contradicts another record',
  inbox: 'a candidate, read-only',
  'pending-human': 'a draft waiting for a person',
  'write-rule': "breaks the layout's own write rules",
  expired: 'past its end date',
};

/**
 * The overview's cards for roots read as records (docs/records.md): their tiers, the flags
 * that are set, and findings, each linking to the records table filtered to them. Without it
 * a folder of records showed every memory card at 0 (docs/records-pages.md, "Overview").
 */
export function RecordsOverview({ counts, total }: { counts: RecordCounts; total: number }) {
  const flags = RECORD_FLAGS.filter((f) => counts.flags[f] > 0);
  return (
    <Section title={`Records (${total.toLocaleString('en-US')})`}>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="record-tiers">
        <StatCard label="Verified" value={counts.tiers.verified} tone="verified" href="/records?tier=verified" />
        <StatCard label="Inferred" value={counts.tiers.inferred} tone="inferred" href="/records?tier=inferred" />
        <StatCard
          label="Quarantined"
          value={counts.tiers.quarantined}
          tone="quarantined"
          href="/records?tier=quarantined"
        />
        <StatCard label="Archived" value={counts.tiers.archived} tone="archived" href="/records?tier=archived" />
      </div>
      {flags.length > 0 || counts.secret > 0 || counts.injection > 0 ? (
        <div className="mt-4 grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="record-flags">
          {flags.map((f) => (
            <StatCard
              key={f}
              label={`Flagged ${flagWord(f)}`}
              value={counts.flags[f]}
              hint={FLAG_HINTS[f]}
              href={`/records?queue=${flagQueue(f)}`}
            />
          ))}
          {counts.secret > 0 ? (
            <StatCard
              label="With a secret finding"
              value={counts.secret}
              hint="values masked"
              href="/records?finding=secret"
            />
          ) : null}
          {counts.injection > 0 ? (
            <StatCard
              label="Injection flagged"
              value={counts.injection}
              hint="advisory"
              href="/records?finding=injection"
            />
          ) : null}
        </div>
      ) : null}
    </Section>
  );
}
