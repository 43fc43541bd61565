/** `memtrust doctor [--json]`: what is installed and what is wrong, each with its fix (docs/install.md). Exit 0 healthy, 1 otherwise. */
import { parseArgs, UsageError } from '../args';
import type { Env } from '../../core/config';
import { doctor, doctorText } from '../../service/doctor';
import type { Command } from './index';

export const doctorCommand: Command = {
  synopsis: 'doctor [--json]',
  summary:
    'what is installed (plugin, settings hooks, duplicates), the roots, index and data; each problem with its fix',
  async run(argv, io) {
    const args = parseArgs(argv, { bools: ['json'] });
    if (args.positionals.length) throw new UsageError(`unexpected argument: ${args.positionals[0]}`);
    const r = doctor(process.env as Env);
    io.out(args.bools.has('json') ? JSON.stringify(r, null, 2) : doctorText(r));
    return r.healthy ? 0 : 1;
  },
};
