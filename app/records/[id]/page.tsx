import type { Metadata } from 'next';
import { parseDone } from '@/components/transition/result-banner';
import { RecordDetail } from '../record-detail';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Record' };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function RecordPage({ params, searchParams }: Props) {
  const { id } = await params;
  return <RecordDetail id={decodeURIComponent(id)} done={parseDone(await searchParams)} />;
}
