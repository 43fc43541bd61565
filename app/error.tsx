'use client';
/** A calm message instead of a stack trace; details stay in the server log. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 p-6 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
    >
      <h1 className="text-lg font-semibold">Something went wrong while loading this page</h1>
      <p className="mt-2 text-sm">
        {error.message && !error.message.includes('\n') && error.message.length < 300 && !error.digest
          ? error.message
          : 'memtrust could not read what this page needs. Your memory files were not changed.'}
      </p>
      {error.digest ? <p className="mt-1 text-xs opacity-70">Reference: {error.digest}</p> : null}
      <button
        type="button"
        onClick={reset}
        className="mt-4 rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800"
      >
        Try again
      </button>
    </div>
  );
}
