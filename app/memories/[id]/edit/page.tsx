import type { Metadata } from 'next';
import Link from 'next/link';
import { freshContext } from '@/lib/server';
import { memoryDetail } from '@/lib/service/memory-detail';
import { parseMemoryId } from '@/lib/memory-id';
import { MemoryForm } from '@/components/memory-form';
import { EmptyState } from '@/components/ui/empty-state';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Edit memory' };

export default async function EditMemoryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ref = parseMemoryId(decodeURIComponent(id));
  const r = ref ? memoryDetail(freshContext(), ref.filename, ref.source) : null;
  if (!r || !r.ok) return <EmptyState title="Memory not found">{r && !r.ok ? r.message : null}</EmptyState>;
  const d = r.detail;
  if (d.tier === 'quarantined' || d.tier === 'archived' || d.bodyTruncated || d.verdicts.secret !== 'CLEAN') {
    return (
      <EmptyState title="This memory cannot be edited here">
        {d.tier === 'quarantined' ? 'Quarantined memories are read-only: restore it first.' : d.tier === 'archived' ? 'Archived memories are kept as a record.' : d.bodyTruncated ? 'The file is too large to edit in the browser.' : 'It contains a secret-like value, which the browser never shows: remove it in your editor first.'}{' '}
        <Link href={`/memories/${encodeURIComponent(d.id)}`} className="text-teal-700 hover:underline">Back</Link>
      </EmptyState>
    );
  }
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Edit “{d.fields.name ?? d.filename}”</h1>
      <MemoryForm mode="edit" id={d.id} sha={d.sha256} initial={{ name: d.fields.name ?? '', description: d.fields.description ?? '', body: d.body.replace(/^\n/, '') }} />
    </div>
  );
}
