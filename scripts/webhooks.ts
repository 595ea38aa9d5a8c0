/**
 * `npm run webhooks -- [--port 8787] [--host 127.0.0.1] [--out dist] [--debounce-ms 1000]`:
 * the webhook receiver for publish-triggered deploys. Verified deliveries
 * (PRESSROOM_WEBHOOK_SECRET) set off `npm run build` into --out, one build at a
 * time with bursts coalesced, then PRESSROOM_DEPLOY_COMMAND after each good
 * build. Ctrl-C (or SIGTERM) stops taking deliveries and waits for a running
 * build and deploy to finish; a second one ends them.
 */
import path from 'node:path';
import { loadDotEnv } from '../src/config/dot-env.ts';
import { loadConfig, upstreamOf } from '../src/config/environment.ts';
import { conditionFlags } from '../src/config/source-condition.ts';
import { createBuildQueue } from '../webhook-receiver/build-queue.ts';
import { buildAndDeploy } from '../webhook-receiver/build-and-deploy.ts';
import { changeReportPath } from './change-report.ts';
import { WEBHOOK_PATH, startWebhookReceiver } from '../webhook-receiver/server.ts';
import { EXIT, integerFlag, parseCommandLine, type CommandSpec } from './cli.ts';
import { assertReplaceable } from '../src/output/staged-output.ts';
import { notifySettingsOf } from '../notify/notify.ts';

const WEBHOOKS_COMMAND: CommandSpec = {
  name: 'webhooks',
  summary: [
    'The webhook receiver for publish-triggered deploys: POST /webhooks takes Standard Webhooks deliveries',
    'signed with PRESSROOM_WEBHOOK_SECRET; each verified one rebuilds the site into --out (one build at a',
    'time, bursts coalesced), then runs PRESSROOM_DEPLOY_COMMAND. GET /healthz reports the queue.',
    'SIGTERM or Ctrl-C: no more deliveries, the running build and deploy finish; a second one ends them.',
  ].join('\n'),
  flags: {
    port: { type: 'string', value: 'PORT', help: 'port to listen on (default 8787; 0: any free port)' },
    host: { type: 'string', value: 'HOST', help: 'address to listen on (default 127.0.0.1; put it behind your HTTPS proxy)' },
    out: { type: 'string', value: 'DIR', help: 'where builds go (default dist/ in the project)' },
    'debounce-ms': { type: 'string', value: 'MS', help: 'deliveries this close together share one build (default 1000)' },
    warm: {
      type: 'boolean',
      help: 'keep a renderer warm between deliveries: a change renders only what it touches in seconds, without a new build process (same as PRESSROOM_WARM=1)',
    },
  },
  variables: {
    PRESSROOM_WEBHOOK_SECRET: 'whsec_... secret of the webhook subscription (required)',
    PRESSROOM_DEPLOY_COMMAND: 'shell command run after each good build, with PRESSROOM_SITE_DIR set',
    PRESSROOM_WEBSUB_HUB: 'WebSub hub told of each changed feed, after the deploy (or the build, without one)',
    PRESSROOM_INDEXNOW_KEY: 'IndexNow key: changed pages submitted after the deploy (or the build, without one)',
    PRESSROOM_WARM: '1 or true: as --warm (default off)',
    PRESSROOM_API_URL: 'and every other variable of npm run build, passed to each build',
  },
  notes: [
    'As a service, run node_modules/.bin/node --conditions=source scripts/webhooks.ts (not npm run) so SIGTERM reaches it: see docs/webhooks.md.',
  ],
};

const root = path.resolve(import.meta.dirname, '..');
loadDotEnv(root);

async function main(): Promise<number> {
  const parsed = parseCommandLine(WEBHOOKS_COMMAND);
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  let options;
  try {
    // Usage first: a wrong flag is named before anything about the configuration.
    const port = integerFlag('port', values.port, 8787, 0, 65535);
    const debounceMs = integerFlag('debounce-ms', values['debounce-ms'], 1000, 0, 600_000);
    const config = loadConfig(process.env);
    if (!config.webhookSecret)
      throw new Error(
        'PRESSROOM_WEBHOOK_SECRET is not set: the receiver verifies every delivery with it (the whsec_… secret of your webhook subscription)',
      );
    // Every build would fail the same way: say so now, not in the log of each delivery.
    upstreamOf(process.env, { publish: true, config });
    const out = path.resolve(typeof values.out === 'string' ? values.out : path.join(root, 'dist'));
    await assertReplaceable(out, ['index.html', '_astro']);
    options = {
      config,
      out,
      secret: config.webhookSecret,
      port,
      debounceMs,
      warm: values.warm === true || config.warm,
      host: typeof values.host === 'string' ? values.host : '127.0.0.1',
    };
  } catch (error) {
    console.error(`webhooks: ${(error as Error).message}`);
    return EXIT.usage;
  }
  const { config, out } = options;
  const log = (line: string) => console.log(line);
  /** The queue's, once it is made below: the warm renderer may ask for one more build. */
  let requestBuild = (): void => undefined;
  const builder = buildAndDeploy({
    root,
    out,
    buildScript: path.join(root, 'scripts', 'build.ts'),
    nodeFlags: conditionFlags(),
    changesFile: changeReportPath(out),
    deployCommand: config.deployCommand,
    env: process.env,
    log,
    // Without a deploy command the build tells them itself, after its swap.
    notify: config.deployCommand ? notifySettingsOf(config) : undefined,
    warmRenderer: options.warm ? path.join(root, 'scripts', 'warm', 'renderer.ts') : undefined,
    onStale: (why) => {
      log(`webhooks: ${why}: one more build`);
      requestBuild();
    },
  });
  const queue = createBuildQueue({
    run: builder.run,
    debounceMs: options.debounceMs,
    onBuilt: (b) =>
      log(`webhooks: ${b.ok ? 'done' : 'FAILED'}: ${b.summary} (${b.requests} ${b.requests === 1 ? 'delivery' : 'deliveries'})`),
  });
  requestBuild = () => queue.request();
  let receiver;
  try {
    receiver = await startWebhookReceiver({ secret: options.secret, queue, port: options.port, host: options.host, log });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? 'is already in use (another receiver still running?)'
        : code === 'EACCES'
          ? 'needs privileges'
          : `cannot be used (${(error as Error).message})`;
    console.error(`webhooks: port ${options.port} on ${options.host} ${why}; choose another with --port`);
    return EXIT.failed;
  }
  log(
    `webhooks: listening on ${receiver.url}${WEBHOOK_PATH} (status: ${receiver.url}/healthz); builds go to ${out}${options.warm ? ' through a warm renderer' : ''}${config.deployCommand ? ', then PRESSROOM_DEPLOY_COMMAND' : ''}`,
  );

  let signals = 0;
  let forced!: () => void;
  const secondSignal = new Promise<void>((resolve) => (forced = resolve));
  await new Promise<void>((resolve) => {
    const onSignal = () => {
      signals++;
      if (signals === 1) return resolve();
      log('webhooks: ending the running build or deploy');
      builder.stop();
      forced();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  log(
    `webhooks: stopping: no more deliveries${queue.status().state === 'idle' ? '' : '; waiting for the running build and deploy (Ctrl-C again to end them)'}`,
  );
  await receiver.close();
  await Promise.race([queue.idle(), secondSignal]);
  // The warm renderer waits for the next delivery: there is none.
  builder.stop();
  // Forced: no further build may start (a pending one would, once the ended one reports).
  if (signals > 1) process.exit(130);
  return EXIT.ok;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`webhooks: ${(error as Error).message.split('\n')[0]}`);
  process.exitCode = EXIT.failed;
}
