/** `memtrust report`: the shareable machine-local report (HTML, JSON or Markdown). */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError, lastValue } from '../args';
import { openContext, parseServiceArgs, printJson } from '../service-args';
import { makeReport, REPORT_FORMATS, type ReportFormat, type ReportOptions } from '../../report';
import { parseTimestamp } from '../../trust/dates';
import { MEMORY_TYPES } from '../../trust/tiers';
import type { Command } from './index';

function dateFlag(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const ts = parseTimestamp(raw);
  if (!ts) throw new UsageError(`--${name} must be YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ`);
  return ts.date.getTime();
}

const reportCmd: Command = {
  synopsis: 'report --format F --out FILE',
  summary: 'shareable report, F = html|json|md [--since DATE --type T --source ROOT]',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['format', 'out', 'since', 'until', 'source', 'type', 'limit'] });
    if (args.positionals.length) throw new UsageError(`unexpected argument: ${args.positionals[0]}`);
    const format = lastValue(args, 'format') ?? 'html';
    if (!(REPORT_FORMATS as readonly string[]).includes(format))
      throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(', ')}`);
    const type = lastValue(args, 'type');
    if (type && !(MEMORY_TYPES as readonly string[]).includes(type))
      throw new UsageError(`--type must be one of ${MEMORY_TYPES.join(', ')}`);
    const limitRaw = lastValue(args, 'limit');
    const limit = limitRaw === undefined ? undefined : Number(limitRaw);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
      throw new UsageError('--limit must be a positive whole number');
    const opts: ReportOptions = {
      type,
      limit,
      sinceMs: dateFlag(lastValue(args, 'since'), 'since'),
      untilMs: dateFlag(lastValue(args, 'until'), 'until'),
    };
    const out = lastValue(args, 'out');
    if (out && out !== '-' && !fs.existsSync(path.dirname(path.resolve(out))))
      throw new UsageError(`--out: directory does not exist: ${path.dirname(out)}`);

    const ctx = openContext(args, io);
    const source = lastValue(args, 'source');
    if (source) {
      // A root path or a source id.
      const hit = ctx.sources.find((s) => s.id === source || s.root === path.resolve(source));
      if (!hit) throw new UsageError(`--source: not a configured root or source id: ${source}`);
      opts.source = hit.id;
    }
    const { text } = makeReport(ctx, format as ReportFormat, opts);
    if (!out || out === '-') {
      io.out(text.replace(/\n$/, ''));
      return 0;
    }
    fs.writeFileSync(out, text);
    const bytes = Buffer.byteLength(text);
    if (args.bools.has('json')) printJson(io, { format, out: path.resolve(out), bytes });
    else io.out(`wrote ${format} report to ${out} (${bytes.toLocaleString('en-US')} bytes)`);
    return 0;
  },
};

export const reportCommands: Record<string, Command> = { report: reportCmd };
