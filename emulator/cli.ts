/**
 * `npm run emulator -- --port 4010 --scale 60 --seed 1`
 * Serves the demo press room until interrupted. Exit codes: 2 for a usage
 * error (unknown flag, missing or bad value), 1 when it cannot run (the port
 * is busy), 0 after Ctrl-C or SIGTERM. Every failure is one line, never a stack.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_MANAGEMENT_KEY, DEMO_NOW, DEMO_SCALE, DEMO_SEED, MIN_IMAGES, MIN_KITS, SHAPES, type Shapes } from './defaults.ts';

const DEFAULT_PORT = 4010;

const USAGE =
  'usage: npm run emulator -- [--port P] [--host H] [--scale N] [--images N] [--kits N] [--seed S] [--now ISO] [--frozen-clock] [--true-totals] ' +
  '[--shapes current|legacy] [--leak-hidden] [--flaws] [--management-key K] [--read-key K] [--help]';

const HELP = `npm run emulator -- [flags]

Serves a local Newsroom Read API (all 45 GET routes, management operations, signed
webhooks, fault injection, a request log) with a deterministic demo press room, so
builds, tests and benchmarks run without credentials. Runs until Ctrl-C.

Flags:
  --port P              port to listen on, 0 to 65535; 0 picks a free one (default ${DEFAULT_PORT})
  --host H              address to listen on (default 127.0.0.1)
  --scale N             number of press releases; everything else grows with it (default ${DEMO_SCALE})
  --images N            images of the library instead of the number grown from --scale (at least ${MIN_IMAGES})
  --kits N              published media kits instead of the number grown from --scale (at least ${MIN_KITS})
  --seed S              seed of the demo data: same seed, same bytes (default ${DEMO_SEED})
  --now ISO             instant the emulator clock starts at (default ${DEMO_NOW})
  --frozen-clock        keep the clock still until POST /_emulator/clock moves it
  --true-totals         paging.total is the real count (the live API sends the limit)
  --shapes S            current (default) or legacy: the older, sparser answers the live API sends
  --leak-hidden         also answer drafts, private, embargoed and locked items, as a key with more rights would
  --flaws               add a fixed set of deliberately broken items among the good ones
  --management-key K    bearer key of the management operations (default ${DEFAULT_MANAGEMENT_KEY})
  --read-key K          require Authorization: Bearer K on Read API requests (default: no key)
  -h, --help            print this help and exit

Environment: reads no PRESSROOM_* variable; everything is set with the flags above.
The same switches can be changed while it runs: POST /_emulator/settings.
Exit codes: 0 after Ctrl-C or SIGTERM, 2 for a usage error, 1 when it cannot run (e.g. the port is busy).`;

/** One line on stderr, then exit: 2 (usage) adds the usage line. */
function fail(code: 1 | 2, message: string): never {
  console.error(`emulator: ${message}${code === 2 ? `\n${USAGE}` : ''}`);
  process.exit(code);
}

/** parseArgs' messages are long and name the API; say what is wrong with the command line instead. */
function usageProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const flag = /'(-{1,2}[^' <]+)/.exec(message ?? '')?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag '${flag ?? '?'}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return message?.includes('does not take an argument') ? `${flag} takes no value` : `${flag} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(message ?? '')?.[1] ?? ''}`.trimEnd();
    default:
      return message?.split('\n')[0] ?? String(error);
  }
}

function integer(name: string, value: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    fail(2, `--${name} must be an integer ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`}, got '${value}'`);
  }
  return n;
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      scale: { type: 'string' },
      images: { type: 'string' },
      kits: { type: 'string' },
      seed: { type: 'string' },
      now: { type: 'string' },
      'frozen-clock': { type: 'boolean' },
      'true-totals': { type: 'boolean' },
      shapes: { type: 'string' },
      'leak-hidden': { type: 'boolean' },
      flaws: { type: 'boolean' },
      'management-key': { type: 'string' },
      'read-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  fail(2, usageProblem(error));
}
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

const port = integer('port', args.port, DEFAULT_PORT, 0, 65_535);
const scale = integer('scale', args.scale, DEMO_SCALE, 1);
const images = args.images === undefined ? undefined : integer('images', args.images, MIN_IMAGES, MIN_IMAGES);
const kits = args.kits === undefined ? undefined : integer('kits', args.kits, MIN_KITS, MIN_KITS);
const seed = integer('seed', args.seed, DEMO_SEED, 0);
const host = args.host ?? '127.0.0.1';
const shapes = (args.shapes ?? 'current') as Shapes;
if (!SHAPES.includes(shapes)) fail(2, `--shapes must be ${SHAPES.join(' or ')}, got '${args.shapes}'`);
if (args.now !== undefined && Number.isNaN(Date.parse(args.now)))
  fail(2, `--now must be an ISO-8601 instant such as ${DEMO_NOW}, got '${args.now}'`);
for (const name of ['host', 'management-key', 'read-key'] as const) {
  if (args[name] !== undefined && args[name].trim() === '') fail(2, `--${name} must not be empty`);
}

/** What a listen error means for the person at the terminal. */
function startProblem(error: NodeJS.ErrnoException): [1 | 2, string] {
  switch (error.code) {
    case 'EADDRINUSE':
      return [1, `port ${port} on ${host} is already in use; stop what is using it, or pick another port with --port (0 = any free port)`];
    case 'EACCES':
      return [1, `not allowed to listen on port ${port} on ${host}; use a port above 1023`];
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return [2, `--host '${host}' is not an address of this machine`];
    default:
      return [
        1,
        `could not start: ${String(error.message)
          .split('\n')[0]!
          .replace(/^emulator: /, '')}`,
      ];
  }
}

const started = performance.now();
// Loaded only now: usage errors and --help answer without the generator and sharp.
const { startEmulator } = await import('./server.ts');
let emulator;
try {
  emulator = await startEmulator({
    port,
    host,
    scale,
    images,
    kits,
    seed,
    now: args.now,
    frozenClock: args['frozen-clock'] ?? false,
    trueTotals: args['true-totals'] ?? false,
    shapes,
    leakHidden: args['leak-hidden'] ?? false,
    flaws: args.flaws ?? false,
    managementKey: args['management-key'] ?? DEFAULT_MANAGEMENT_KEY,
    readKey: args['read-key'] ?? null,
  });
} catch (error) {
  fail(...startProblem(error as NodeJS.ErrnoException));
}
const { id, domain, name } = emulator.pressroom;
const world = emulator.store().world;
const modes = [
  shapes === 'legacy' && 'legacy shapes',
  args['leak-hidden'] && 'hidden items leaked',
  args.flaws && 'flawed items added',
].filter(Boolean);
console.log(`Newsroom API emulator listening on ${emulator.url} (ready in ${Math.round(performance.now() - started)} ms)`);
console.log(`  press room   ${id}  (domain ${domain})  "${name}"`);
console.log(
  `  content      ${world.pressReleases.length} press releases, ${world.mediaKits.length} media kits, ${world.images.length} images, ${world.clippings.length} clippings`,
);
if (modes.length > 0) console.log(`  answers      ${modes.join(', ')}`);
console.log(`  try          ${emulator.url}/v1/pressrooms/${id}/press_releases.json?includes=tags,featured_images`);
console.log(`  admin        ${emulator.url}/_emulator  (clock, faults, requests, webhooks, settings, reset)`);
console.log(
  `  management   Authorization: Bearer ${emulator.managementKey === DEFAULT_MANAGEMENT_KEY ? DEFAULT_MANAGEMENT_KEY : '<as given>'}`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void emulator.close().then(() => process.exit(0));
  });
}
