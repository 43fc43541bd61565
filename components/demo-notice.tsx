/** Says plainly that the dashboard shows generated data, and how to point it at real memories. */
export function DemoNotice({ root }: { root: string }) {
  return (
    <div
      role="note"
      className="mb-6 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <strong>Demo data.</strong> No memory root is configured, so memtrust generated a demo root at{' '}
      <code className="font-mono text-xs">{root}</code>. Set <code className="font-mono text-xs">MEMTRUST_ROOT</code>{' '}
      (or add a root in Settings) to manage your own memories.
    </div>
  );
}
