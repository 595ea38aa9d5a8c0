/**
 * Deploys of a built site into a real S3-compatible server (s3rver, in its
 * own process) with `npm run deploy`, each timed from outside:
 *   first      the whole site into an empty prefix (for the record)
 *   changed    after one release's title changed and the site was rebuilt:
 *              against uploading the same files alone with plain PUTs at the
 *              same concurrency (bench/upload-files.ts, also its own process)
 *   no change  after a rebuild that confirmed the site: its requests, against
 *              the listing (one request per 1,000 objects) and the manifest read
 * `node --conditions=source bench/deploy.ts --scale demo|L|N` (the goal is set at scale 1000).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MANAGEMENT_KEY, DEMO_NOW } from '../emulator/defaults.ts';
import { parseCommandLine } from '../scripts/cli.ts';
import { changeReportPath, type ChangeReport } from '../scripts/change-report.ts';
import { startS3Server } from '../test/helpers/s3-server.ts';
import { startEmulatorProcess } from './emulator-process.ts';
import { atMostGoal } from './goals.ts';
import { measure, type Measured } from './measure.ts';
import { profileOrExit } from './profiles.ts';
import { writePart } from './results.ts';

const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node --conditions=source bench/deploy.ts',
  summary: 'Deploys into s3rver: one changed release against uploading its files alone, and the requests of a deploy with nothing changed.',
  flags: { scale: { type: 'string', value: 'demo|L|N', help: 'size of the emulated press room (default demo)' } },
  variables: {},
});
if ('exit' in parsed) process.exit(parsed.exit);
const profile = profileOrExit(parsed.values.scale);

const root = path.resolve(import.meta.dirname, '..');
const CHANGED_TARGET = 1.3;
const CONCURRENCY = 16;

const emulator = await startEmulatorProcess(profile);
const s3 = await startS3Server();
const work = await mkdtemp(path.join(os.tmpdir(), `pressroom-bench-deploy-${profile.name}-`));
try {
  const site = path.join(work, 'site');
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PRESSROOM_|AWS_|CF_|FASTLY_)/.test(name))),
    PRESSROOM_API_URL: emulator.url,
    PRESSROOM_ID: String(emulator.pressroomId),
    PRESSROOM_SITE_URL: 'https://press.example.test',
    PRESSROOM_CACHE_DIR: path.join(work, 'cache'),
    SOURCE_DATE_EPOCH: String(Date.parse(DEMO_NOW) / 1000),
    ASTRO_TELEMETRY_DISABLED: '1',
    ...s3.env,
    AWS_MAX_ATTEMPTS: '3',
  };
  const run = async (label: string, args: string[]): Promise<Measured> => {
    console.log(`bench deploy (${profile.name}): ${label}…`);
    const result = await measure(args, { cwd: root, env });
    console.log(`  ${label}: ${Math.round(result.ms)} ms`);
    return result;
  };
  const requests = (): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const { method, query } of s3.requests) {
      const kind =
        method === 'POST' && query.includes('delete')
          ? 'DELETE (batch)'
          : method === 'GET' && !query.includes('GetObject')
            ? 'LIST'
            : method;
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    return { total: s3.requests.length, ...counts };
  };
  const deploy = (label: string) =>
    run(label, ['scripts/deploy.ts', `s3://${s3.bucket}/site`, '--from', site, '--concurrency', String(CONCURRENCY)]);

  await run('cold build', ['scripts/build.ts', '--out', site]);
  s3.requests.length = 0;
  const first = await deploy('first deploy');
  const firstRequests = requests();

  const [release] = (
    (await (await fetch(`${emulator.url}/v1/pressrooms/${emulator.pressroomId}/press_releases?limit=1`)).json()) as {
      data: Array<{ id: number; title: string }>;
    }
  ).data;
  if (!release) throw new Error('bench: the press room has no release to change');
  const put = await fetch(`${emulator.url}/v1/campaigns/${release.id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEFAULT_MANAGEMENT_KEY}` },
    body: JSON.stringify({ campaign: { title: `${release.title} (updated)` } }),
  });
  if (!put.ok) throw new Error(`bench: changing release ${release.id} failed: ${put.status}`);
  await run('rebuild after one changed release', ['scripts/build.ts', '--out', site]);
  const report = JSON.parse(await readFile(changeReportPath(site), 'utf8')) as ChangeReport;
  s3.requests.length = 0;
  const changed = await deploy('deploy of the changed release');
  const changedRequests = requests();
  if (!/compared through the change report/.test(changed.log)) throw new Error('bench: the deploy did not use the change report');
  const uploaded = [...report.added, ...report.changed].map((entry) => entry.path);
  const listFile = path.join(work, 'changed-files.txt');
  await writeFile(listFile, `${uploaded.join('\n')}\n`);
  const alone = await run(`${uploaded.length} changed files uploaded alone`, [
    'bench/upload-files.ts',
    site,
    `s3://${s3.bucket}/reference`,
    listFile,
    String(CONCURRENCY),
  ]);

  await run('rebuild with nothing changed', ['scripts/build.ts', '--out', site]);
  s3.requests.length = 0;
  const unchanged = await deploy('deploy with nothing changed');
  const unchangedRequests = requests();
  const files = Number(/deploy: (\d+) files;/.exec(unchanged.log)?.[1]);
  const listingRequests = unchangedRequests.LIST ?? 0;

  await writePart(profile.name, {
    bench: 'deploy',
    goals: [
      atMostGoal({
        name: 'deploy-changed',
        what: `deploy of one changed release (${uploaded.length} files uploaded, ${report.counts.removed} removed) against uploading those files alone`,
        measured: changed.ms,
        reference: alone.ms,
        against: 'plain PUTs',
        target: CHANGED_TARGET,
        peakRssMiB: changed.peakRssMiB,
      }),
      atMostGoal({
        name: 'deploy-same',
        what: `requests of a deploy with nothing changed (${files} files) against its listing requests and one manifest read`,
        measured: unchangedRequests.total ?? 0,
        reference: listingRequests + 1,
        against: 'listing + manifest',
        unit: 'requests',
        target: 1,
        peakRssMiB: unchanged.peakRssMiB,
      }),
    ],
    details: {
      files,
      first: { ms: Math.round(first.ms), requests: firstRequests },
      changed: { ms: Math.round(changed.ms), requests: changedRequests, release: release.id, counts: report.counts },
      alone: { ms: Math.round(alone.ms), files: uploaded.length },
      unchanged: { ms: Math.round(unchanged.ms), requests: unchangedRequests },
    },
  });
} finally {
  await Promise.all([emulator.stop(), s3.dispose()]);
  await rm(work, { recursive: true, force: true });
}
