import Link from 'next/link';
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
 * The overview's cards for roots read as records (docs/records.md): the flags
 * that are set, and findings, each linking to the records table filtered to them. Without it
 * a folder of records showed every memory card at 0 (docs/records-pages.md, "Overview").
 */
export function RecordsOverview({ counts, total }: { counts: RecordCounts; total: number }) {
  const flags = RECORD_FLAGS.filter((f) => counts.flags[f] > 0);
  return (
    <Section title={`Records (${total.toLocaleString('en-US')})`}>
      {/* Their tiers are in the overview's tier cards, one count with the memories (docs/dashboard.md "Overview"). */}
      <p className="text-sm">
        <Link href="/records" className="font-medium text-teal-700 hover:underline dark:text-teal-300">
          Records table →
        </Link>
      </p>
      {flags.length > 0 || counts.secret > 0 || counts.injection > 0 ? (
        <div className="mt-3 grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="record-flags">
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
