'use client';
/**
 * Add or edit a memory. Adding is the user's gesture: the new memory is verified. An edit keeps
 * the memory's tier (docs/trust-model.md, the `edit` row) and shows its line diff first:
 * "Preview changes", then Save (docs/review-inbox.md "Editor").
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { createMemoryAction, editMemoryFieldsAction, previewEditAction } from '@/app/actions';
import type { EditPreview } from '@/lib/service/write/edit-fields';
import { LineDiffList } from './line-diff-list';
import { memoryHref } from './format';

const input =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-900';

type Props =
  | { mode: 'create'; sources: { id: string; root: string }[] }
  | {
      mode: 'edit';
      id: string;
      sha: string;
      initial: { name: string; description: string; body: string; type: string };
      /** Where each required field was found: a nested one is written back under `metadata:`. */
      places: Record<'name' | 'description' | 'type', 'top' | 'metadata' | 'missing'>;
    };

type MemoryType = 'user' | 'feedback' | 'project' | 'reference';
const TYPES: MemoryType[] = ['user', 'feedback', 'project', 'reference'];
const isType = (t: string): t is MemoryType => (TYPES as string[]).includes(t);
const placeNote = (p: 'top' | 'metadata' | 'missing' | undefined) =>
  p === 'metadata' ? ' (under metadata:)' : p === 'missing' ? ' (missing: it will be added)' : '';

export function MemoryForm(props: Props) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const init = props.mode === 'edit' ? props.initial : { name: '', description: '', body: '', type: 'feedback' };
  const [v, setV] = useState({
    ...init,
    type: (isType(init.type) ? init.type : '') as MemoryType | '',
    source: props.mode === 'create' ? (props.sources[0]?.id ?? '') : '',
  });
  const places = props.mode === 'edit' ? props.places : undefined;
  // The diff of the form as it stands; any change to the form drops it (Save needs a fresh one).
  const [preview, setPreview] = useState<EditPreview | null>(null);
  const change = (next: typeof v) => {
    setPreview(null);
    setV(next);
  };

  function previewEdit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    if (props.mode !== 'edit') return;
    if (!v.type) return setError('Choose a type: it is a required field.');
    const type = v.type;
    start(async () => {
      const r = await previewEditAction({
        id: props.id,
        expectSha: props.sha,
        type,
        name: v.name,
        description: v.description,
        body: v.body,
      });
      if (!r.ok) return setError(r.message);
      setPreview(r.data);
    });
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    start(async () => {
      if (props.mode === 'create') {
        if (!v.type) return setError('Choose a type.');
        const r = await createMemoryAction({
          source: v.source,
          type: v.type,
          name: v.name,
          description: v.description,
          body: v.body,
        });
        if (!r.ok) return setError(r.message);
        const [source, filename] = [
          r.data.id.slice(0, r.data.id.indexOf(':')),
          r.data.id.slice(r.data.id.indexOf(':') + 1),
        ];
        router.push(memoryHref(source, filename));
      } else {
        if (!v.type) return setError('Choose a type: it is a required field.');
        const r = await editMemoryFieldsAction({
          id: props.id,
          expectSha: props.sha,
          type: v.type,
          name: v.name,
          description: v.description,
          body: v.body,
        });
        if (!r.ok) return setError(r.message);
        const i = props.id.indexOf(':');
        router.push(memoryHref(props.id.slice(0, i), props.id.slice(i + 1)));
      }
      router.refresh();
    });
  }

  return (
    <form onSubmit={props.mode === 'edit' && !preview ? previewEdit : submit} className="max-w-3xl space-y-4">
      {error ? (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {error}
        </p>
      ) : null}
      {props.mode === 'edit' && props.initial.type && !isType(props.initial.type) ? (
        <p className="text-sm text-amber-800 dark:text-amber-300">
          The file's type “{props.initial.type}” is not one of user, feedback, project, reference: choose one.
        </p>
      ) : null}
      <div className="flex gap-4">
        <label className="flex-1 text-sm font-medium">
          Type{placeNote(places?.type)}
          <select
            required
            value={v.type}
            onChange={(e) => change({ ...v, type: e.target.value as typeof v.type })}
            className={input}
          >
            <option value="" disabled>
              choose…
            </option>
            <option value="user">user</option>
            <option value="feedback">feedback</option>
            <option value="project">project</option>
            <option value="reference">reference</option>
          </select>
        </label>
        {props.mode === 'create' && props.sources.length > 1 ? (
          <label className="flex-1 text-sm font-medium">
            Root
            <select value={v.source} onChange={(e) => change({ ...v, source: e.target.value })} className={input}>
              {props.sources.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.root}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <label className="block text-sm font-medium">
        Name{placeNote(places?.name)}
        <input
          required
          maxLength={100}
          value={v.name}
          onChange={(e) => change({ ...v, name: e.target.value })}
          className={input}
        />
      </label>
      <label className="block text-sm font-medium">
        Description{placeNote(places?.description)}
        <input
          required
          maxLength={256}
          value={v.description}
          onChange={(e) => change({ ...v, description: e.target.value })}
          className={input}
        />
      </label>
      <label className="block text-sm font-medium">
        Memory (Markdown)
        <textarea
          required
          rows={12}
          value={v.body}
          onChange={(e) => change({ ...v, body: e.target.value })}
          className={`${input} font-mono`}
          placeholder={'What to remember.\n\n**Why:** …\n\n**How to apply:** …'}
        />
      </label>
      {props.mode === 'create' ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Saving validates first: structure errors and secrets block the save. The new memory is verified, last verified
          today.
        </p>
      ) : (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          An edit keeps the memory's tier: it does not promote (promote does, after the observation period). Saving
          validates first: structure errors and secrets block the save.
        </p>
      )}
      {preview ? (
        <section aria-label="Changes to save" className="space-y-2">
          <p className="text-sm">
            {preview.added + preview.removed === 0
              ? 'No line changes.'
              : `${preview.removed} line${preview.removed === 1 ? '' : 's'} removed, ${preview.added} added. The memory stays ${preview.tier}.`}
          </p>
          {preview.blocked ? (
            <p role="alert" className="text-sm text-red-800 dark:text-red-300">
              {preview.blocked}
            </p>
          ) : null}
          <LineDiffList rows={preview.rows.filter((r, i, all) => r.op !== 'same' || near(all, i))} />
        </section>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          disabled={
            pending || (preview !== null && (preview.blocked !== null || preview.added + preview.removed === 0))
          }
          className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
        >
          {props.mode === 'create'
            ? pending
              ? 'Saving…'
              : 'Add memory'
            : preview
              ? pending
                ? 'Saving…'
                : 'Save'
              : pending
                ? 'Comparing…'
                : 'Preview changes'}
        </button>
        {preview ? (
          <button
            type="button"
            onClick={() => setPreview(null)}
            className="rounded-md border border-slate-300 px-4 py-2 text-sm dark:border-slate-600"
          >
            Keep editing
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A changed line's neighbours: unchanged lines within two of a change are kept, the rest folded away. */
function near(rows: EditPreview['rows'], i: number): boolean {
  for (let j = Math.max(0, i - 2); j <= Math.min(rows.length - 1, i + 2); j++) if (rows[j]!.op !== 'same') return true;
  return false;
}
