import Link from 'next/link';
import type { InboxParams } from '@/lib/web/inbox-url';
import type { InboxFacets } from '@/db/queries/inbox';
import { INBOX_PAGE_SIZES } from '@/lib/web/inbox-url';
import { EFFECTIVE_TIERS } from '@/lib/trust/tiers';
import { clearedHref } from '@/lib/web/url-state';
import { queueOptions } from '@/lib/web/queues';
import { RECORD_QUEUES } from '@/db/queries/record-rows';

const field = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900';
const lbl = 'flex flex-col gap-0.5 text-xs font-medium text-slate-600 dark:text-slate-300';

const QUEUE_VALUES = [
  'inbox',
  'any',
  'due',
  'observing',
  'stale',
  'passive',
  'quarantine-audit',
  'archive-candidates',
  'conflicts',
  'backfill',
  ...RECORD_QUEUES,
];

const LAYOUT_NAMES: Record<string, string> = {
  'trust-root': 'trust root',
  'claude-code': 'Claude Code folder',
  canonical: 'canonical',
  governed: 'governed (read-only)',
  consolidation: 'consolidation',
};

/** Every layout a configured root has (the file layouts always). */
function layoutOptions(facets: InboxFacets): [string, string][] {
  const present = new Set(['trust-root', 'claude-code', ...facets.sources.map((s) => s.kind)]);
  const known = Object.keys(LAYOUT_NAMES).filter((l) => present.has(l));
  const other = [...present].filter((l) => !(l in LAYOUT_NAMES)).sort();
  return [...known, ...other].map((l): [string, string] => [l, LAYOUT_NAMES[l] ?? l]);
}

function Select({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value?: string;
  options: [string, string][];
}) {
  return (
    <label className={lbl}>
      {label}
      <select name={name} defaultValue={value ?? ''} className={field}>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A plain GET form: works without JavaScript; every filter lands in the URL (page and selection reset). */
export function InboxFilters({ params, facets }: { params: InboxParams; facets: InboxFacets }) {
  const any: [string, string] = ['', 'any'];
  return (
    <form
      action="/review"
      method="get"
      role="search"
      aria-label="Inbox filters"
      className="mb-3 flex flex-wrap items-end gap-2"
    >
      <label className={lbl}>
        Search
        <input
          type="search"
          name="q"
          defaultValue={params.q ?? ''}
          placeholder="name, description, body"
          className={`${field} w-48`}
        />
      </label>
      <Select name="queue" label="Queue" value={params.queue ?? 'inbox'} options={queueOptions(QUEUE_VALUES)} />
      {facets.sources.length > 1 ? (
        <Select
          name="source"
          label="Root"
          value={params.source}
          options={[any, ...facets.sources.map((s): [string, string] => [s.id, s.root.split('/').slice(-2).join('/')])]}
        />
      ) : null}
      <Select name="layout" label="Layout" value={params.layout} options={[any, ...layoutOptions(facets)]} />
      <Select
        name="type"
        label="Type"
        value={params.type}
        options={[any, ...['user', 'feedback', 'project', 'reference'].map((t): [string, string] => [t, t])]}
      />
      <Select
        name="tier"
        label="Tier"
        value={params.tier}
        options={[any, ...EFFECTIVE_TIERS.map((t): [string, string] => [t, t])]}
      />
      <Select
        name="cls"
        label="Finding class"
        value={params.cls}
        options={[any, ['credential', 'credential'], ['personal', 'personal data']]}
      />
      <Select
        name="kind"
        label="Finding kind"
        value={params.kind}
        options={[
          any,
          ...facets.kinds.map((k): [string, string] => [k.code, `${k.code} (${k.memories.toLocaleString('en-US')})`]),
        ]}
      />
      <Select
        name="flag"
        label="Origin"
        value={params.flag}
        options={[any, ['untrusted-origin', 'untrusted origin'], ['user-requested', 'user-requested']]}
      />
      <Select
        name="age"
        label="Age (days)"
        value={params.age}
        options={[any, ['0-7', '0–7'], ['8-30', '8–30'], ['31-90', '31–90'], ['91+', '91+']]}
      />
      <Select
        name="size"
        label="Rows"
        value={params.size ? String(params.size) : '50'}
        options={INBOX_PAGE_SIZES.map((n): [string, string] => [String(n), String(n)])}
      />
      {params.sort ? <input type="hidden" name="sort" value={params.sort} /> : null}
      {params.dir ? <input type="hidden" name="dir" value={params.dir} /> : null}
      {params.finding ? <input type="hidden" name="finding" value={params.finding} /> : null}
      {params.project ? <input type="hidden" name="project" value={params.project} /> : null}
      <button
        type="submit"
        className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
      >
        Apply
      </button>
      <Link
        href={clearedHref('/review', params.project)}
        className="px-2 py-1.5 text-sm text-slate-600 hover:underline dark:text-slate-300"
      >
        Clear
      </Link>
    </form>
  );
}
