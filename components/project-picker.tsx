'use client';
/**
 * The project picker in the header (docs/roots.md "The Claude Code home"): "All projects" by
 * default; a choice lands in the URL (`?project=`) and in a cookie, so the pages reached by
 * any link keep it (app/page-project.ts). A plain GET form: without JavaScript the
 * button applies it to the current page.
 */
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { PROJECT_COOKIE } from './project-cookie';

export interface PickerChoice {
  value: string;
  label: string;
  exists: boolean;
}

function remember(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: one first-party preference cookie; the Cookie Store API is not in every browser
  document.cookie = value
    ? `${PROJECT_COOKIE}=${encodeURIComponent(value)}; path=/; SameSite=Strict; max-age=31536000`
    : `${PROJECT_COOKIE}=; path=/; SameSite=Strict; max-age=0`;
}

export function ProjectPicker({ choices, remembered }: { choices: PickerChoice[]; remembered: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const fromUrl = params.get('project');
  // The layout is not rendered again on a client navigation: the choice is kept here too.
  const [chosen, setChosen] = useState(remembered);
  const current = fromUrl ?? chosen;
  // A bookmarked ?project= becomes the remembered choice too.
  useEffect(() => {
    if (fromUrl !== null && fromUrl !== chosen) {
      remember(fromUrl);
      setChosen(fromUrl);
    }
  }, [fromUrl, chosen]);
  return (
    <form method="get" action={pathname} className="flex items-center gap-1 text-sm" data-testid="project-picker">
      <label htmlFor="project-picker" className="sr-only">
        Project
      </label>
      <select
        id="project-picker"
        name="project"
        value={current}
        onChange={(e) => {
          const value = e.target.value;
          remember(value);
          setChosen(value);
          // A new project starts the page over: its filters and paging were the other project's.
          router.push(value ? `${pathname}?project=${encodeURIComponent(value)}` : `${pathname}?project=`);
        }}
        className="max-w-[14rem] rounded-md border 2xl:max-w-[22rem] border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        <option value="">All projects</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
            {c.exists ? '' : ' (no longer exists)'}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="rounded-md border border-slate-300 px-2 py-1">
          Show
        </button>
      </noscript>
    </form>
  );
}
