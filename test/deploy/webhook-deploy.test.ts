/**
 * The deploy as the webhook receiver runs it: PRESSROOM_DEPLOY_COMMAND as
 * docs/deploy.md writes it, started by the receiver's own child runner in the
 * project folder, in a shell, with PRESSROOM_SITE_DIR and PRESSROOM_CHANGES
 * set as after a build (webhook-receiver/build-and-deploy.ts), reaches the
 * bucket and reports through the receiver's log.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeReportPath } from '../../scripts/change-report.ts';
import { runChild } from '../../webhook-receiver/build-and-deploy.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';
import { buildSite, firstVersion } from './site-versions.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
let tmp: string;
let s3: S3Server;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'deploy-webhook-'));
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.dispose();
  await rm(tmp, { recursive: true, force: true });
});

describe('PRESSROOM_DEPLOY_COMMAND', () => {
  it('the documented `npm run deploy` command deploys the site the receiver just built', async () => {
    const docs = await readFile(path.join(root, 'docs', 'deploy.md'), 'utf8');
    const documented = /PRESSROOM_DEPLOY_COMMAND='([^']+)'/.exec(docs)![1]!;
    expect(documented).toMatch(/^npm run deploy -- s3:\/\/\S+ --from "\$PRESSROOM_SITE_DIR"/);
    // The same command, pointed at the test's bucket and without the CDN purge.
    const command = documented.replace(/s3:\/\/\S+/, `s3://${s3.bucket}/site`).replace(/ --purge \w+/, '');
    const site = path.join(tmp, 'dist');
    await buildSite(site, firstVersion());
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (/^(AWS_|PRESSROOM_|CF_|FASTLY_)/.test(name)) delete env[name];
    const lines: string[] = [];
    const run = await runChild(
      command,
      [],
      {
        cwd: root,
        env: { ...env, ...s3.env, PRESSROOM_SITE_DIR: site, PRESSROOM_CHANGES: changeReportPath(site) },
        shell: true,
        timeoutMs: 120_000,
        children: new Set<ChildProcess>(),
      },
      (line) => lines.push(line),
    );
    expect(run.code).toBe(0);
    expect(lines).toContainEqual(expect.stringMatching(/^deploy: done: \d+ to upload, 0 to delete/));
    const puts = s3.requests.filter((r) => r.method === 'PUT').map((r) => r.key);
    expect(puts).toContain('site/index.html');
    // Every file, the manifest and the marker of a deploy under way.
    expect(puts).toHaveLength(Object.keys(firstVersion()).length + 2);
  });
});
