/**
 * What every command does with its command line: `--help` prints what it
 * does, its flags and the PRESSROOM_* variables it reads (exit 0); an unknown
 * flag, a flag without its value or a stray argument prints one line and the
 * usage (exit 2). One exit-code rule for all commands: 0 only when the output
 * is complete, 1 for a run that failed, 2 for a usage or configuration error.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface Flag {
  /** `--name VALUE` (string) or `--name` (boolean). */
  type: 'string' | 'boolean';
  /** Shown after the flag in the help, e.g. `DIR`. */
  value?: string;
  help: string;
  /** Shown without brackets in the usage line (the command checks it). */
  required?: boolean;
}

export interface CommandSpec {
  /** `build`, as in `npm run build`. */
  name: string;
  /** How it is run, when not `npm run <name> --`: e.g. `node bench/pages.ts`. */
  invocation?: string;
  /** One or two lines: what the command does. */
  summary: string;
  flags: Record<string, Flag>;
  /** PRESSROOM_* variables the command reads, each with a few words. */
  variables: Record<string, string>;
  /** Extra lines at the end of the help (examples). */
  notes?: string[];
  /** One argument that is not a flag, e.g. `s3://BUCKET[/PREFIX]` (the command checks it is there). */
  argument?: { value: string; help: string };
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function usageLine(spec: CommandSpec): string {
  const flags = Object.entries(spec.flags).map(([name, f]) => {
    const flag = `--${name}${f.type === 'string' ? ` ${f.value ?? 'VALUE'}` : ''}`;
    return f.required ? flag : `[${flag}]`;
  });
  if (spec.argument) flags.unshift(spec.argument.value);
  const invocation = spec.invocation ?? `npm run ${spec.name}${flags.length ? ' --' : ''}`;
  return `usage: ${invocation}${flags.length ? ` ${flags.join(' ')}` : ''}`;
}

export function helpText(spec: CommandSpec): string {
  const flagRows = Object.entries({ ...spec.flags, help: { type: 'boolean', help: 'print this help and exit' } as Flag }).map(
    ([name, f]) => [`--${name}${f.type === 'string' ? ` ${f.value ?? 'VALUE'}` : ''}`, f.help],
  );
  if (spec.argument) flagRows.unshift([spec.argument.value, spec.argument.help]);
  const width = Math.max(...flagRows.map(([left]) => left!.length), ...Object.keys(spec.variables).map((v) => v.length));
  const rows = (list: string[][]) => list.map(([left, right]) => `  ${left!.padEnd(width)}  ${right}`);
  return [
    usageLine(spec),
    '',
    spec.summary,
    '',
    'flags:',
    ...rows(flagRows),
    '',
    'environment (or .env in the project):',
    ...(Object.keys(spec.variables).length ? rows(Object.entries(spec.variables)) : ['  (none)']),
    '',
    'exit status: 0 done, 1 the run failed, 2 usage or configuration error',
    ...(spec.notes?.length ? ['', ...spec.notes] : []),
  ].join('\n');
}

/**
 * The parsed flags, or an exit code when the command must stop here (help printed: 0;
 * usage error printed: 2). Strict: unknown flags and stray arguments are errors.
 */
export function parseCommandLine(
  spec: CommandSpec,
  args: string[] = process.argv.slice(2),
): { values: Record<string, string | boolean | undefined>; argument?: string } | { exit: number } {
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  for (const [name, flag] of Object.entries(spec.flags)) options[name] = { type: flag.type };
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: spec.argument !== undefined });
    if (values.help) {
      console.log(helpText(spec));
      return { exit: EXIT.ok };
    }
    if (positionals.length > 1) throw new Error(`Unexpected argument '${positionals[1]}'`);
    return { values: values as Record<string, string | boolean | undefined>, argument: positionals[0] };
  } catch (error) {
    console.error(`${spec.name}: ${oneLineArgError(error as Error)}`);
    console.error(usageLine(spec));
    console.error(`(${spec.invocation ?? `npm run ${spec.name} --`} --help for details)`);
    return { exit: EXIT.usage };
  }
}

/** node:util's parse errors, shortened to what the user typed wrong. */
function oneLineArgError(error: Error): string {
  const message = error.message.split('\n')[0]!;
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown flag ${unknown[1]}`;
  const missing = /^Option '([^']+?)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1]!.replace(/^-\w, /, '')} needs a value`;
  const positional = /^Unexpected argument '([^']+)'/.exec(message);
  if (positional) return `unexpected argument ${JSON.stringify(positional[1])} (flags start with --)`;
  return message;
}

/** An integer flag within bounds; throws UsageError naming the flag. */
export function integerFlag(name: string, value: string | boolean | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** The first line of an error's message: what a command's one-line error says. */
export const firstLine = (error: unknown): string => ((error as Error)?.message ?? String(error)).split('\n')[0]!;
