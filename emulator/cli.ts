/**
 * `npm run emulator -- --port 4010 --scale 60 --seed 1`
 * Serves the demo press room until interrupted.
 */
import { parseArgs } from 'node:util';
import { DEMO_SCALE, DEMO_SEED } from './demo-data/generate.ts';
import { DEFAULT_MANAGEMENT_KEY, startEmulator } from './server.ts';

const USAGE = `usage: npm run emulator -- [--port P] [--host H] [--scale N] [--seed S] [--now ISO] [--frozen-clock] [--true-totals] [--management-key K] [--read-key K]`;

function integer(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`emulator: --${name} must be an integer >= ${min}, got '${value}'\n${USAGE}`);
    process.exit(2);
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
      seed: { type: 'string' },
      now: { type: 'string' },
      'frozen-clock': { type: 'boolean' },
      'true-totals': { type: 'boolean' },
      'management-key': { type: 'string' },
      'read-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  console.error(`emulator: ${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

const started = performance.now();
const emulator = await startEmulator({
  port: integer('port', args.port, 4010),
  host: args.host ?? '127.0.0.1',
  scale: integer('scale', args.scale, DEMO_SCALE, 1),
  seed: integer('seed', args.seed, DEMO_SEED),
  now: args.now,
  frozenClock: args['frozen-clock'] ?? false,
  trueTotals: args['true-totals'] ?? false,
  managementKey: args['management-key'] ?? DEFAULT_MANAGEMENT_KEY,
  readKey: args['read-key'] ?? null,
});
const { id, domain, name } = emulator.pressroom;
const world = emulator.store().world;
console.log(`Newsroom API emulator listening on ${emulator.url} (ready in ${Math.round(performance.now() - started)} ms)`);
console.log(`  press room   ${id}  (domain ${domain})  "${name}"`);
console.log(`  content      ${world.pressReleases.length} press releases, ${world.mediaKits.length} media kits, ${world.images.length} images, ${world.clippings.length} clippings`);
console.log(`  try          ${emulator.url}/v1/pressrooms/${id}/press_releases.json?includes=tags,featured_images`);
console.log(`  admin        ${emulator.url}/_emulator  (clock, faults, requests, webhooks, reset)`);
console.log(`  management   Authorization: Bearer ${emulator.managementKey === DEFAULT_MANAGEMENT_KEY ? DEFAULT_MANAGEMENT_KEY : '<as given>'}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void emulator.close().then(() => process.exit(0));
  });
}
