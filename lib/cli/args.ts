/**
 * A small strict argv parser: every command declares its flags, so an unknown
 * flag is a usage error (exit 64) instead of being silently ignored.
 */

export interface FlagSpec {
  /** Flags that take a value (`--root DIR` or `--root=DIR`); may repeat. */
  values?: readonly string[];
  /** Flags without a value. */
  bools?: readonly string[];
}

export interface ParsedArgs {
  positionals: string[];
  values: Map<string, string[]>;
  bools: Set<string>;
}

export class UsageError extends Error {
  readonly code = 'usage';
}

export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const values = new Map<string, string[]>();
  const bools = new Set<string>();
  const positionals: string[] = [];
  const valueFlags = new Set(spec.values ?? []);
  const boolFlags = new Set(spec.bools ?? []);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = (eq === -1 ? arg : arg.slice(0, eq)).replace(/^--?/, '');
    if (valueFlags.has(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      values.set(name, [...(values.get(name) ?? []), value]);
    } else if (boolFlags.has(name) && eq === -1) {
      bools.add(name);
    } else {
      throw new UsageError(`unknown option: ${arg}`);
    }
  }
  return { positionals, values, bools };
}

export function lastValue(args: ParsedArgs, name: string): string | undefined {
  const v = args.values.get(name);
  return v?.[v.length - 1];
}
