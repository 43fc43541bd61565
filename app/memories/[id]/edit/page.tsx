import type { Metadata } from 'next';
import Link from 'next/link';
import { freshContext } from '@/lib/server';
import { memoryDetail } from '@/lib/service/index/memory-detail';
import { parseMemoryId } from '@/lib/core/memory-id';
import { MemoryForm } from '@/components/memory-form';
import { editableMemory } from '@/lib/service/write/edit-fields';
import { EmptyState } from '@/components/ui/empty-state';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Edit memory' };

export default async function EditMemoryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ref = parseMemoryId(decodeURIComponent(id));
  const ctx = freshContext();
  const r = ref ? memoryDetail(ctx, ref.filename, ref.source) : null;
  if (!r?.ok) return <EmptyState title="Memory not found">{r && !r.ok ? r.message : null}</EmptyState>;
  const d = r.detail;
  if (d.tier === 'quarantined' || d.tier === 'archived' || d.bodyTruncated || d.verdicts.secret !== 'CLEAN') {
    return (
      <EmptyState title="This memory cannot be edited here">
        {d.tier === 'quarantined'
          ? 'Quarantined memories are read-only: restore it first.'
          : d.tier === 'archived'
            ? 'Archived memories are kept as a record.'
            : d.bodyTruncated
              ? 'The file is too large to edit in the browser.'
              : 'It contains a secret-like value, which the browser never shows: remove it in your editor first.'}{' '}
        <Link href={`/memories/${encodeURIComponent(d.id)}`} className="text-teal-700 hover:underline">
          Back
        </Link>
      </EmptyState>
    );
  }
  const f = editableMemory(ctx, { source: d.source, filename: d.filename });
  if (!f || f.error) {
    return (
      <EmptyState title="The frontmatter does not parse">
        {f?.error ? `${f.error.message} (line ${f.error.line}).` : 'The file could not be read.'} Fix that line in your
        editor, or demote the memory and use Repair and restore.{' '}
        <Link href={`/memories/${encodeURIComponent(d.id)}`} className="text-teal-700 hover:underline">
          Back
        </Link>
      </EmptyState>
    );
  }
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Edit “{d.fields.name ?? d.filename}”</h1>
      <MemoryForm
        mode="edit"
        id={d.id}
        sha={d.sha256}
        places={f.places}
        initial={{
          name: f.values.name,
          description: f.values.description,
          type: f.values.type,
          body: d.body.replace(/^\n/, ''),
        }}
      />
    </div>
  );
}
