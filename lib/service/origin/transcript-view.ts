/**
 * The transcript page (docs/origin.md "The transcript view"): the turn that wrote a memory
 * and its neighbours. The transcript is found from the memory's id — its root, its
 * originSessionId, the folder beside it — never from the URL, and every text is masked.
 */
import fs from 'node:fs';
import type { Failure } from '../../core/error-codes';
import type { ServiceContext } from '../context';
import { parseMemoryId } from '../../core/memory-id';
import { resolveMemory } from '../index/resolve';
import { readFields } from '../index/inspect';
import { FILE_CAP_BYTES } from '../../validators/types';
import { maskValues } from '../../validators/mask-inline';
import { readTurnWindow, type TurnEntry, type TurnWindow } from '../../origin/turn-view';
import { originOfMemory } from './memory-origin';
import type { OriginKnown } from './origin';

export interface TranscriptView {
  memoryId: string;
  filename: string;
  origin: OriginKnown;
  /** The turn asked for (the writing turn by default). */
  turn: number;
  window: TurnWindow;
}

export type TranscriptViewResult = { ok: true; view: TranscriptView } | Failure;

/** Turns a page may ask for: a number, not a path or anything else. */
const MAX_TURN = 1_000_000;

function masked(e: TurnEntry, mask: (s: string) => string): TurnEntry {
  switch (e.kind) {
    case 'tool-use':
      return { ...e, input: mask(e.input) };
    case 'user':
    case 'assistant':
    case 'tool-result':
    case 'other':
      return { ...e, text: mask(e.text) };
  }
}

export function transcriptView(ctx: ServiceContext, memoryId: string, turn?: number): TranscriptViewResult {
  const ref = parseMemoryId(memoryId);
  if (!ref) return { ok: false, code: 'bad-id', message: 'this link does not name a memory' };
  const r = resolveMemory(ctx.sources, ref.filename, { sourceId: ref.source });
  if (!r.ok) return { ok: false, code: r.code, message: r.message };
  const { found } = r;
  let fields: Record<string, string> = {};
  try {
    if (fs.statSync(found.abs).size <= FILE_CAP_BYTES) fields = readFields(fs.readFileSync(found.abs)).fields;
  } catch {
    // unreadable now: the origin is unknown below
  }
  const origin = originOfMemory(ctx, { source: found.source, abs: found.abs, filename: found.filename, fields });
  if (origin.status !== 'known') return { ok: false, code: 'not-found', message: `origin unknown: ${origin.why}` };
  const at = turn !== undefined && Number.isInteger(turn) && turn >= 0 && turn <= MAX_TURN ? turn : origin.write.turn;
  let window: TurnWindow;
  try {
    window = readTurnWindow(origin.session.transcript, at);
  } catch (e) {
    return {
      ok: false,
      code: 'not-found',
      message: `the transcript cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
  const owner = ctx.owner();
  const mask = (s: string) => maskValues(s, owner).text;
  return {
    ok: true,
    view: {
      memoryId: `${found.source.id}:${found.filename}`,
      filename: found.filename,
      origin,
      turn: at,
      window: { ...window, entries: window.entries.map((e) => masked(e, mask)) },
    },
  };
}
