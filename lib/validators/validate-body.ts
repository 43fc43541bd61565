/**
 * Body rules of docs/validators.md. The body is decoded lossily here because these
 * checks only read it; the write path never decodes the body at all.
 */
import { struct, warn } from './validate-findings';
import { codePointLength, trimBlankLines } from './validate-text';
import type { Finding } from './types';

export const BODY_MIN = 30;
export const BODY_MAX = 5000;

/** Bold (`**Why:**`, `**Why**:`) anywhere, or plain at the start of a line (after an optional bullet). */
function marker(label: string): RegExp {
  return new RegExp(`\\*\\*${label}:\\*\\*|\\*\\*${label}\\*\\*:|^[ \\t]*(?:[-*+>][ \\t]+)?${label}:`, 'im');
}
const WHY = marker('why');
const HOW = marker('how[ \\t]+to[ \\t]+apply');
const ABSOLUTE = /\b(?:must[ \t]+always|must[ \t]+never|always|never|from[ \t]+now[ \t]+on)\b/i;
const JUSTIFICATION = /\b(?:because|reasons?|why|due[ \t]+to|incidents?)\b/i;

function lineAt(text: string, offset: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** `firstLine` is the file line the body starts on; `type` is the memory type when it is known. */
export function checkBody(body: Buffer, firstLine: number, type: string | undefined): Finding[] {
  const out: Finding[] = [];
  const text = new TextDecoder('utf-8').decode(body);
  const n = codePointLength(trimBlankLines(text));
  if (n < BODY_MIN)
    out.push(struct('body-too-short', `body too short (${n} characters, minimum ${BODY_MIN})`, firstLine));
  if (n > BODY_MAX)
    out.push(warn('body-too-long', `body too long (${n} characters, recommended at most ${BODY_MAX})`, firstLine));
  if (type === 'feedback' || type === 'project') {
    if (!WHY.test(text)) out.push(warn('missing-why-marker', `${type} body without a Why: marker`));
    if (!HOW.test(text)) out.push(warn('missing-how-marker', `${type} body without a How to apply: marker`));
  }
  const absolute = ABSOLUTE.exec(text);
  if (absolute && !JUSTIFICATION.test(text)) {
    const word = absolute[0].toLowerCase().replace(/[ \t]+/g, ' ');
    const message = `absolute command "${word}" without a justification (because, reason, why, due to, incident)`;
    out.push(warn('absolute-without-justification', message, firstLine + lineAt(text, absolute.index)));
  }
  return out;
}
