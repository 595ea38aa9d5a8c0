/**
 * API loading against its ideal. Loading is latency-bound: ideal = requests ×
 * latency ÷ concurrency. The emulator runs in its own process (its
 * serialisation is not counted against the client) with a fixed latency
 * injected on every API route; every collection source runs through one
 * client (exactly the requests a build makes), and the elapsed time is the
 * ratio to the ideal computed from the requests actually made. A run without
 * injected latency shows the fixed cost per request on this machine.
 * `node --conditions=source bench/api-load.ts --scale demo|L|N`.
 */
import { createNewsroomClient } from '@pressroom-static/content-loaders';
import { SOURCES } from '@pressroom-static/content-loaders';
import { fetchAll, fetchOnlyContext } from '@pressroom-static/content-loaders';
import { EXIT, parseCommandLine } from '../scripts/cli.ts';
import { startEmulatorProcess } from './emulator-process.ts';
import { atMostGoal, goalLine } from './goals.ts';
import { profileOf } from './profiles.ts';
import { writePart } from './results.ts';

const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node --conditions=source bench/api-load.ts',
  summary: 'API loading against its ideal (requests × latency ÷ concurrency), the emulator in its own process, with peak memory.',
  flags: {
    scale: { type: 'string', value: 'demo|L|N', help: 'size of the emulated press room (default demo)' },
    latency: { type: 'string', value: 'MS', help: 'latency injected on every API route (default 40)' },
    concurrency: { type: 'string', value: 'N', help: 'concurrent requests (default 8)' },
  },
  variables: {},
});
if ('exit' in parsed) process.exit(parsed.exit);
const profile = profileOf(parsed.values.scale as string | undefined);
const values = { latency: '40', concurrency: '8', ...parsed.values } as { latency: string; concurrency: string };
const latencyMs = Number(values.latency);
const concurrency = Number(values.concurrency);
if (!profile || !(latencyMs > 0) || !Number.isInteger(concurrency) || concurrency < 1) {
  console.error('bench: --scale must be demo, L or a number of releases; --latency a positive number; --concurrency a whole number ≥ 1');
  process.exit(EXIT.usage);
}
const TARGET = 1.3;

async function loadEverything(url: string, pressroomId: number) {
  const client = createNewsroomClient({ baseUrl: url, pressroomId, concurrency });
  const started = performance.now();
  let items = 0;
  await Promise.all(
    Object.values(SOURCES).map(async (source) => {
      await fetchAll(source.fetch(client, fetchOnlyContext()), (batch) => (items += batch.items.length));
    }),
  );
  const ms = performance.now() - started;
  const stats = client.stats();
  return { ms, items, requests: stats.requests, bytes: stats.bytes };
}

const emulator = await startEmulatorProcess(profile);
try {
  const bare = await loadEverything(emulator.url, emulator.pressroomId);
  const fault = await emulator.admin('faults', { route: '/v1/*', kind: 'latency', latencyMs });
  if (!fault.ok) throw new Error(`bench: the emulator refused the latency fault (${fault.status})`);
  const slow = await loadEverything(emulator.url, emulator.pressroomId);
  const ideal = (slow.requests * latencyMs) / concurrency;
  const peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  const goal = atMostGoal({
    name: 'api',
    what: `loading every collection at ${latencyMs} ms latency × ${concurrency} concurrent against requests × latency ÷ concurrency`,
    measured: slow.ms,
    reference: ideal,
    against: 'ideal',
    target: TARGET,
    peakRssMiB,
  });
  await writePart(profile.name, {
    bench: 'api',
    goals: [goal],
    details: {
      latencyMs,
      concurrency,
      emulatorStartMs: Math.round(emulator.startMs),
      items: slow.items,
      requests: slow.requests,
      bytes: slow.bytes,
      withoutLatency: { ms: Math.round(bare.ms), perRequestMs: Number((bare.ms / bare.requests).toFixed(2)) },
    },
  });
  console.log(
    `api load (${profile.name}): ${slow.items} items in ${slow.requests} requests; without latency ${Math.round(bare.ms)} ms\n  ${goalLine(goal)}`,
  );
} finally {
  await emulator.stop();
}
