'use client';
/** Add or edit a memory. Saving is an explicit user gesture: the memory becomes verified. */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { createMemoryAction, editMemoryFieldsAction } from '@/app/actions';
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
    <form onSubmit={submit} className="max-w-3xl space-y-4">
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
            onChange={(e) => setV({ ...v, type: e.target.value as typeof v.type })}
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
            <select value={v.source} onChange={(e) => setV({ ...v, source: e.target.value })} className={input}>
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
          onChange={(e) => setV({ ...v, name: e.target.value })}
          className={input}
        />
      </label>
      <label className="block text-sm font-medium">
        Description{placeNote(places?.description)}
        <input
          required
          maxLength={256}
          value={v.description}
          onChange={(e) => setV({ ...v, description: e.target.value })}
          className={input}
        />
      </label>
      <label className="block text-sm font-medium">
        Memory (Markdown)
        <textarea
          required
          rows={12}
          value={v.body}
          onChange={(e) => setV({ ...v, body: e.target.value })}
          className={`${input} font-mono`}
          placeholder={'What to remember.\n\n**Why:** …\n\n**How to apply:** …'}
        />
      </label>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Saving validates first: structure errors and secrets block the save. The saved memory is verified, last verified
        today.
      </p>
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
      >
        {pending ? 'Saving…' : props.mode === 'create' ? 'Add memory' : 'Save'}
      </button>
    </form>
  );
}
