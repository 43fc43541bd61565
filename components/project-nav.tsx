import { Suspense } from 'react';
import { cookies } from 'next/headers';
import { context } from '@/lib/server';
import { projectChoices } from '@/lib/service/project-filter';
import { PROJECT_COOKIE } from './project-cookie';
import { ProjectPicker } from './project-picker';

/**
 * The header's project picker, when the roots name projects (the Claude Code home, or
 * configured project folders): docs/roots.md "The Claude Code home". Reads the roots the
 * server already described, never the disk.
 */
export async function ProjectNav() {
  let choices: ReturnType<typeof projectChoices>;
  try {
    const ctx = context();
    choices = projectChoices([...ctx.sources, ...ctx.recordSources]);
  } catch {
    return null;
  }
  if (!choices.some((c) => c.value !== 'user')) return null;
  const c = (await cookies()).get(PROJECT_COOKIE)?.value;
  const remembered = c ? decodeURIComponent(c) : '';
  return (
    <Suspense fallback={null}>
      <ProjectPicker
        choices={choices.map(({ value, label, exists }) => ({ value, label, exists }))}
        remembered={remembered}
      />
    </Suspense>
  );
}
