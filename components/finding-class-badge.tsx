import { CLASS_LABELS, type FindingClass } from '@/lib/validators/types';

const TONE: Record<FindingClass, string> = {
  credential: 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100',
  personal: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100',
};

/** The class of a secret finding, as one of two distinct badges: "credential" or "personal data". */
export function FindingClassBadge({ cls }: { cls: FindingClass }) {
  return (
    <span
      data-finding-class={cls}
      className={`mr-1 inline-block rounded border px-1.5 py-px text-[11px] font-medium ${TONE[cls]}`}
    >
      {CLASS_LABELS[cls]}
    </span>
  );
}
