/**
 * `npm run deploy -- s3://BUCKET[/PREFIX] [--from DIR] [--dry-run] [--purge cloudflare|fastly]`:
 * puts the built site where the CDN reads it (deploy/): only what changed,
 * hashed assets first, then the other assets, pages, feeds and indexes,
 * deletions last, each object with its Content-Type and Cache-Control, then a
 * purge of the changed URLs, then (--notify) the WebSub hub and IndexNow are
 * told what changed (notify/). Holds the site folder's lock, so a build cannot
 * swap the site while it is being read.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadDotEnv } from '../src/config/dot-env.ts';
import { openBucket } from '../deploy/bucket.ts';
import { DeployError, deploySite, firstLine, type DeployResult } from '../deploy/deploy.ts';
import { PURGE_CDNS, type Purger } from '../deploy/purge/types.ts';
import { redactor } from '../deploy/redact.ts';
import { describeTarget, parseTarget, type Target } from '../deploy/target.ts';
import { acquireLocks } from './build-lock.ts';
import { CHANGES_FORMAT, changeReportPath, urlsOfFile, type ChangeReport } from './change-report.ts';
import { EXIT, integerFlag, parseCommandLine, type CommandSpec } from './cli.ts';
import type { NotifySettings } from '../notify/notify.ts';

const DEPLOY_COMMAND: CommandSpec = {
  name: 'deploy',
  summary: [
    'Puts the built site into an S3-compatible bucket (S3, R2, B2, MinIO, GCS) under PREFIX: only files that',
    'changed, hashed assets first, then other assets, pages, feeds and indexes, deletions last; removed hashed',
    'assets are kept one deploy longer. A deploy stopped midway leaves the old pages with their assets; the next',
    'one completes it. Then purges the changed URLs from the CDN (--purge).',
  ].join('\n'),
  argument: { value: 's3://BUCKET[/PREFIX]', help: 'the bucket and folder the CDN serves as the site root (required)' },
  flags: {
    from: {
      type: 'string',
      value: 'DIR',
      help: 'the built site (default dist/ in the project); its change report DIR.changes.json is used',
    },
    'dry-run': { type: 'boolean', help: 'print what would be uploaded and deleted; write nothing' },
    verify: {
      type: 'boolean',
      help: 'list the bucket and compare it with the manifest even when the change report makes the plan (a deploy with nothing to upload always does)',
    },
    purge: { type: 'string', value: 'CDN', help: `after the upload, purge the changed URLs: ${PURGE_CDNS.join(' or ')}` },
    concurrency: { type: 'string', value: 'N', help: 'uploads at once (default 16)' },
    wait: { type: 'string', value: 'SECONDS', help: 'how long to wait for a build of DIR to finish (default 600)' },
    notify: {
      type: 'boolean',
      help: 'once the site is online (uploaded and purged), tell the WebSub hub and IndexNow which feeds and pages changed',
    },
  },
  variables: {
    AWS_ENDPOINT_URL_S3: 'the S3-compatible endpoint (or AWS_ENDPOINT_URL); unset: AWS S3',
    AWS_REGION: "the bucket's region (R2: auto); AWS_PROFILE, AWS_ACCESS_KEY_ID and the rest as the AWS CLI",
    PRESSROOM_SITE_URL: 'public URL of the site, for purge URLs when there is no change report',
    CF_ZONE_ID: '--purge cloudflare: the zone, and CF_API_TOKEN (Cache Purge permission)',
    FASTLY_SERVICE_ID: '--purge fastly: the service, and FASTLY_API_TOKEN (purge_select, purge_all)',
    PRESSROOM_WEBSUB_HUB: '--notify: the WebSub hub told of each changed feed',
    PRESSROOM_INDEXNOW_KEY: '--notify: the IndexNow key changed pages are submitted with (and PRESSROOM_INDEXNOW_ENDPOINT)',
  },
  notes: [
    'examples:',
    '  npm run deploy -- s3://press-example-com --purge cloudflare',
    '  AWS_ENDPOINT_URL_S3=https://ACCOUNT.r2.cloudflarestorage.com AWS_REGION=auto npm run deploy -- s3://press/site',
    '  npm run build -- --no-notify && npm run deploy -- s3://press-example-com --purge cloudflare --notify',
    'Credentials are never printed. See docs/deploy.md.',
  ],
};

const root = path.resolve(import.meta.dirname, '..');

interface DeployPlan {
  target: Target;
  siteDir: string;
  dryRun: boolean;
  concurrency: number;
  waitMs: number;
  purger: Purger | undefined;
  verify: boolean;
  /** --notify was given. */
  notify: boolean;
}

/**
 * --notify: the targets the configuration sets; a deploy run by the webhook receiver leaves it to the
 * receiver. The configuration is read only then (its checks load more than a deploy needs otherwise).
 */
async function notifyPlan(): Promise<NotifySettings | undefined> {
  const [{ loadConfig }, { notifySettingsOf }] = await Promise.all([import('../src/config/environment.ts'), import('../notify/notify.ts')]);
  const settings = notifySettingsOf(loadConfig(process.env));
  if (!settings) throw new Error('--notify needs PRESSROOM_WEBSUB_HUB or PRESSROOM_INDEXNOW_KEY (see docs/operating.md)');
  // The receiver sets PRESSROOM_SITE_DIR for its deploy command, and announces itself once the command succeeded.
  if (!process.env.PRESSROOM_SITE_DIR) return settings;
  log('deploy: --notify left to the webhook receiver, which announces once this deploy succeeded');
  return undefined;
}

async function planDeploy(): Promise<DeployPlan | number> {
  const parsed = parseCommandLine(DEPLOY_COMMAND);
  if ('exit' in parsed) return parsed.exit;
  const { values, argument } = parsed;
  try {
    if (!argument) throw new Error('the target s3://BUCKET[/PREFIX] is required');
    const target = parseTarget(argument);
    const siteDir = path.resolve(typeof values.from === 'string' ? values.from : path.join(root, 'dist'));
    if (!existsSync(siteDir) || !statSync(siteDir).isDirectory())
      throw new Error(`${siteDir} is not a folder; build the site first (npm run build) or name it with --from DIR`);
    return {
      target,
      siteDir,
      dryRun: values['dry-run'] === true,
      concurrency: integerFlag('concurrency', values.concurrency, 16, 1, 256),
      waitMs: integerFlag('wait', values.wait, 600, 0, 86_400) * 1000,
      // Loaded only when asked for: a deploy without a purge does not pay for the CDNs' modules.
      purger:
        typeof values.purge === 'string' ? (await import('../deploy/purge/purger.ts')).purgerFor(values.purge, process.env) : undefined,
      verify: values.verify === true,
      notify: values.notify === true,
    };
  } catch (error) {
    console.error(redact(`deploy: ${firstLine(error)}`));
    console.error(`(npm run deploy -- --help for details)`);
    return EXIT.usage;
  }
}

/** The site's change report, when one stands beside it and is of this format. */
async function readChangeReport(siteDir: string): Promise<ChangeReport | undefined> {
  try {
    const report = JSON.parse(await readFile(changeReportPath(siteDir), 'utf8')) as ChangeReport;
    return report.format === CHANGES_FORMAT ? report : undefined;
  } catch {
    return undefined;
  }
}

// Before anything prints: secrets set in .env are blanked too.
loadDotEnv(root);
const redact = redactor(process.env);
const log = (line: string) => console.log(redact(line));

async function main(): Promise<number> {
  const plan = await planDeploy();
  if (typeof plan === 'number') return plan;
  const { target, siteDir, dryRun, verify, concurrency, purger } = plan;
  let notify: NotifySettings | undefined;
  try {
    notify = plan.notify ? await notifyPlan() : undefined;
  } catch (error) {
    console.error(redact(`deploy: ${firstLine(error)}`));
    return EXIT.usage;
  }
  let locks;
  try {
    locks = await acquireLocks([{ target: siteDir, label: siteDir }], { waitMs: plan.waitMs, command: 'deploy', log });
  } catch (error) {
    console.error(redact(`deploy: ${firstLine(error)}`));
    return EXIT.failed;
  }
  const started = performance.now();
  const bucket = openBucket(target, process.env, { maxSockets: concurrency });
  try {
    const report = await readChangeReport(siteDir);
    log(`deploy: ${siteDir} → ${describeTarget(target)}${dryRun ? ' (dry run)' : ''}`);
    let result;
    try {
      result = await deploySite({ siteDir, target, bucket, report, dryRun, verify, purging: purger !== undefined, concurrency, log });
    } catch (error) {
      const what = error instanceof DeployError ? error.message : `deploy to ${describeTarget(target)} failed: ${firstLine(error)}`;
      console.error(redact(`deploy failed: ${what}`));
      console.error(
        bucket.requests.put + bucket.requests.delete === 0
          ? 'nothing in the bucket was changed.'
          : 'the bucket still serves a whole site (the previous pages with every asset they name); run the deploy again to complete it.',
      );
      return EXIT.failed;
    }
    const { list, get, put, delete: deletes } = bucket.requests;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log(`deploy: ${list} list, ${get} get, ${put} put and ${deletes} delete requests in ${seconds} s`);
    if (purger && !dryRun && result.toPurge.length > 0) {
      // A failed purge leaves its files due, to be announced by the deploy whose purge succeeds.
      const purged = await purge(purger, result, report?.site);
      if (purged !== EXIT.ok) return purged;
    }
    // Online only now: a hub fetches the feed the moment it is told.
    if (notify && !dryRun) {
      const announce = {
        site: report?.site ?? process.env.PRESSROOM_SITE_URL?.trim(),
        files: purger ? result.toPurge : result.changed,
        first: result.plan.emptyBefore,
      };
      const { notifyAfterDeploy } = await import('../notify/notify.ts');
      await notifyAfterDeploy(announce, notify, siteDir, { info: log, warn: (line) => console.warn(redact(line)) });
    }
    return EXIT.ok;
  } finally {
    bucket.close();
    await locks.release();
  }
}

/** The CDN purge of what the deploy changed; EXIT.failed (said in one line) when it could not be done. */
async function purge(purger: Purger, result: DeployResult, reportSite: string | undefined): Promise<number> {
  const site = reportSite ?? process.env.PRESSROOM_SITE_URL?.trim();
  if (!site) {
    console.error('deploy: uploaded, but cannot purge: no change report beside the site and no PRESSROOM_SITE_URL to make URLs from');
    return EXIT.failed;
  }
  try {
    if (result.plan.emptyBefore) {
      const calls = await purger.purgeEverything();
      log(`deploy: purged everything from ${purger.name} (a first deploy; ${calls} call)`);
    } else {
      const { purgeUrlsOf } = await import('../deploy/purge/purger.ts');
      const urls = purgeUrlsOf(result.toPurge, site, urlsOfFile);
      const calls = await purger.purgeUrls(urls);
      log(`deploy: purged ${urls.length} URLs from ${purger.name} in ${calls} calls`);
    }
    await result.purged();
  } catch (error) {
    console.error(
      redact(`deploy: uploaded, but the purge failed: ${firstLine(error)}; the next deploy with --purge purges these URLs again`),
    );
    return EXIT.failed;
  }
  return EXIT.ok;
}

process.exitCode = await main();
