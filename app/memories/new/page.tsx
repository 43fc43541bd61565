import type { Metadata } from 'next';
import { context } from '@/lib/server';
import { MemoryForm } from '@/components/memory-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Add a memory' };

export default function NewMemoryPage() {
  const ctx = context();
  const sources = ctx.sources.filter((s) => !s.error).map((s) => ({ id: s.id, root: s.root }));
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Add a memory</h1>
      <MemoryForm mode="create" sources={sources} />
    </div>
  );
}
