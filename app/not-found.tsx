import Link from 'next/link';
import { EmptyState } from '@/components/ui/empty-state';

export default function NotFound() {
  return (
    <EmptyState title="Page not found">
      <Link href="/" className="text-teal-700 hover:underline dark:text-teal-300">
        Back to the overview
      </Link>
    </EmptyState>
  );
}
