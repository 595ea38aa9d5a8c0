/**
 * `npm run snapshot -- --out DIR`: records the press room (every API answer
 * and every media original) so `PRESSROOM_SNAPSHOT=DIR npm run build` can
 * build it later with no network at all.
 */
import path from 'node:path';
import { loadDotEnv } from '../src/config/dot-env.ts';
import { loadConfig, upstreamOf } from '../src/config/environment.ts';
import { formatBytes } from '@pressroom-static/content-loaders';
import { recordSnapshot } from '@pressroom-static/content-loaders';
import { demoRequested, requestDemo, startDemoApi } from '../src/config/demo-upstream.ts';
import { publicationInstant } from '../src/config/clock.ts';
import { createGuardedOpener } from '@pressroom-static/image-pipeline';
import { EXIT, parseCommandLine, type CommandSpec } from './cli.ts';

const SNAPSHOT_COMMAND: CommandSpec = {
  name: 'snapshot',
  summary: [
    'Records the press room for offline builds: every API answer the build needs and every media original',
    'they point to, into DIR (manifest.json + files/). Build from it with PRESSROOM_SNAPSHOT=DIR npm run build.',
  ].join('\n'),
  flags: {
    out: { type: 'string', value: 'DIR', required: true, help: 'where the snapshot goes (required)' },
    demo: { type: 'boolean', help: 'record the bundled demo press room (a fictional company)' },
  },
  variables: {
    PRESSROOM_API_URL: 'the Newsroom API to record (none set at all: the demo press room)',
    PRESSROOM_ID: 'press room id or domain',
    PRESSROOM_API_KEY: 'API key (never recorded)',
    PRESSROOM_IMAGE_HOSTS: 'extra hosts media may come from',
    PRESSROOM_CONCURRENCY: 'concurrent requests and downloads',
  },
  notes: ['Exit 1 when a media original could not be downloaded (it is named and left out).'],
};

loadDotEnv(path.resolve(import.meta.dirname, '..'));

async function main(): Promise<number> {
  const parsed = parseCommandLine(SNAPSHOT_COMMAND);
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  let demo: boolean;
  try {
    if (typeof values.out !== 'string') throw new Error('--out DIR is required (where the snapshot goes)');
    if (values.demo) requestDemo(process.env);
    const upstream = upstreamOf(process.env, { demo: demoRequested() });
    if (upstream === 'snapshot')
      throw new Error('PRESSROOM_SNAPSHOT is set; a snapshot is recorded from an API (PRESSROOM_API_URL), not from another snapshot');
    demo = upstream === 'demo';
  } catch (error) {
    console.error(`snapshot: ${(error as Error).message}`);
    return EXIT.usage;
  }
  const out = path.resolve(values.out);
  const started = performance.now();
  const embedded = demo ? await startDemoApi() : undefined;
  try {
    const configured = loadConfig(process.env);
    for (const note of configured.notes) console.log(`snapshot: ${note}`);
    // The demo is recorded from the emulator's own address (real connections, as for any API).
    const config = embedded ? Object.assign(configured, { apiUrl: embedded.apiUrl, pressroomId: embedded.pressroomId }) : configured;
    if (embedded)
      console.log(`snapshot: DEMO: recording the bundled demo press room ${embedded.emulator.pressroom.id} (a fictional company)`);
    // Media originals under the same host policy as a build's image downloads.
    const openMedia = createGuardedOpener({ apiUrl: config.apiUrl!, imageHosts: config.imageHosts });
    const result = await recordSnapshot({
      config,
      out,
      openMedia,
      demo,
      now: publicationInstant(process.env),
      log: (line) => console.log(`snapshot: ${line}`),
    });
    console.log(
      `snapshot: wrote ${out}: ${result.apiResponses} API responses, ${result.mediaFiles} media originals` +
        `${result.mediaFailures.length ? ` (${result.mediaFailures.length} failed)` : ''}, ${formatBytes(result.bytes)} in ${Math.round(performance.now() - started)} ms`,
    );
    return result.mediaFailures.length > 0 ? EXIT.failed : EXIT.ok;
  } catch (error) {
    console.error(`snapshot: ${(error as Error).message.split('\n')[0]}`);
    return EXIT.failed;
  } finally {
    await embedded?.close();
  }
}

process.exitCode = await main();
