'use client';

/**
 * The filter form, enhanced: empty fields are left out of the URL on submit
 * (disabled controls are not sent), so links stay short and readable. Without
 * JavaScript it is still a plain GET form and empty values are simply ignored.
 */
export function AuditFilterForm({ action, children }: { action: string; children: React.ReactNode }) {
  return (
    <form
      action={action}
      method="get"
      role="search"
      aria-label="Filter audit events"
      className="mb-4 flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        const emptied: (HTMLInputElement | HTMLSelectElement)[] = [];
        for (const el of Array.from(e.currentTarget.elements)) {
          if ((el instanceof HTMLInputElement || el instanceof HTMLSelectElement) && el.name && el.value === '')
            emptied.push(el);
        }
        for (const el of emptied) el.disabled = true;
        // The form data is built right after this handler: re-enable for the back/forward cache.
        setTimeout(() => {
          for (const el of emptied) el.disabled = false;
        }, 0);
      }}
    >
      {children}
    </form>
  );
}
