/**
 * The webhook receiver: only verified Standard Webhooks deliveries set off a
 * build (signatures from the `standardwebhooks` package and from the emulator's
 * own dispatcher), redeliveries are ignored, builds run one at a time with
 * bursts coalesced, and each build is told which releases its deliveries named. Builds here are stand-ins that count and wait; the real
 * build and deploy run end to end in test/build/builds.test.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuildQueue, type BuildOutcome } from '../../webhook-receiver/build-queue.ts';
import { WEBHOOK_PATH, startWebhookReceiver, type RunningReceiver } from '../../webhook-receiver/server.ts';
import { runChild } from '../../webhook-receiver/build-and-deploy.ts';
import { MAX_NAMED_RELEASES, mergeScopes, scopeOfEvent, type ChangeScope } from '../../webhook-receiver/change-scope.ts';
import { useEmulator } from '../helpers/emulator.ts';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/** A build stand-in: counts runs, tracks how many overlap, and finishes when told (or after `ms`). */
function fakeBuilds(ms = 0) {
  const state = { runs: 0, running: 0, maxRunning: 0, release: [] as Array<() => void> };
  const run = async (): Promise<BuildOutcome> => {
    state.runs++;
    state.running++;
    state.maxRunning = Math.max(state.maxRunning, state.running);
    await new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : state.release.push(resolve)));
    state.running--;
    return { ok: true, summary: `build ${state.runs}` };
  };
  return { state, run };
}

const until = async (probe: () => boolean, what: string) => {
  const deadline = Date.now() + 5000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the build queue', () => {
  it('coalesces a burst into one build, and requests during a build into exactly one more', async () => {
    const { state, run } = fakeBuilds();
    const built: number[] = [];
    const queue = createBuildQueue({ run, debounceMs: 30, onBuilt: (b) => built.push(b.requests) });
    for (let i = 0; i < 10; i++) queue.request();
    expect(queue.status().state).toBe('scheduled');
    await until(() => state.runs === 1, 'the first build');
    expect(queue.status()).toMatchObject({ state: 'building', pending: false });
    for (let i = 0; i < 5; i++) queue.request();
    expect(queue.status()).toMatchObject({ state: 'building', pending: true });
    state.release.shift()!();
    await until(() => state.runs === 2, 'the follow-up build');
    state.release.shift()!();
    await queue.idle();
    expect(state.runs).toBe(2);
    expect(state.maxRunning).toBe(1);
    expect(built).toEqual([10, 5]);
    expect(queue.status()).toMatchObject({ state: 'idle', pending: false, builds: 2, last: { ok: true, requests: 5 } });
  });

  it('reports a build that throws as failed and keeps serving', async () => {
    let calls = 0;
    const queue = createBuildQueue({
      run: async () => {
        calls++;
        if (calls === 1) throw new Error('spawn ENOENT');
        return { ok: true, summary: 'fine' };
      },
      debounceMs: 0,
    });
    queue.request();
    await queue.idle();
    expect(queue.status().last).toMatchObject({ ok: false, summary: 'the build could not run: spawn ENOENT' });
    queue.request();
    await queue.idle();
    expect(queue.status().last).toMatchObject({ ok: true, summary: 'fine' });
  });
});

describe('the receiver', () => {
  const builds = fakeBuilds(20);
  const queue = createBuildQueue({ run: builds.run, debounceMs: 50 });
  const logs: string[] = [];
  let receiver: RunningReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ secret: SECRET, queue, log: (l) => logs.push(l), maxBodyBytes: 64 * 1024 });
  });
  afterAll(() => receiver.close());

  const deliver = async (body: string, headers: Record<string, string>) => {
    const res = await fetch(`${receiver.url}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; error?: { message: string } } };
  };
  const signed = (id: string, body: string, at = new Date(), secret = SECRET) => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  });
  const event = (type: string) => JSON.stringify({ type, timestamp: new Date().toISOString(), data: { id: 1, object: 'press_release' } });

  it('refuses unsigned, wrongly signed, tampered and stale deliveries with 401, setting off nothing', async () => {
    const body = event('press_release.published');
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    const answers = [
      await deliver(body, {}),
      await deliver(body, signed('msg_other_secret', body, new Date(), other)),
      await deliver(body.replace('published', 'unpublished'), signed('msg_tampered', body)),
      await deliver(body, signed('msg_stale', body, new Date(Date.now() - 10 * 60_000))),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect(answers[0]!.body.error!.message).toMatch(/PRESSROOM_WEBHOOK_SECRET/);
    await new Promise((r) => setTimeout(r, 100));
    expect(builds.state.runs).toBe(0);
    expect(queue.status().state).toBe('idle');
    expect(logs.join('\n')).not.toContain(SECRET);
  });

  it('accepts a verified delivery with 202 and builds; a redelivery of the same id sets off nothing', async () => {
    const body = event('media_kit.unpublished');
    const first = await deliver(body, signed('msg_kit_1', body));
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ id: 'msg_kit_1', type: 'media_kit.unpublished' });
    const again = await deliver(body, signed('msg_kit_1', body));
    expect(again).toMatchObject({ status: 200, body: { data: { duplicate: true } } });
    await queue.idle();
    expect(builds.state.runs).toBe(1);
    const health = (await (await fetch(`${receiver.url}/healthz`)).json()) as { data: { state: string; builds: number } };
    expect(health.data).toMatchObject({ state: 'idle', builds: 1 });
  });

  it('answers JSON errors for other paths and methods and for oversized bodies', async () => {
    expect((await fetch(`${receiver.url}/other`)).status).toBe(404);
    const get = await fetch(`${receiver.url}${WEBHOOK_PATH}`);
    expect([get.status, get.headers.get('allow'), get.headers.get('content-type')]).toEqual([
      405,
      'POST',
      'application/json; charset=utf-8',
    ]);
    const big = 'x'.repeat(70 * 1024);
    expect((await deliver(big, signed('msg_big', big))).status).toBe(413);
  });

  it('closes the connection after a 413, so the next request on a kept-alive connection is answered', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: string) =>
      new Promise<{ status: number; connection: string | undefined; sockets: number }>((resolve, reject) => {
        const req = http.request(
          `${receiver.url}${WEBHOOK_PATH}`,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, sockets: socketsSeen.size }));
          },
        );
        req.on('socket', (socket) => socketsSeen.add(socket));
        req.on('error', reject);
        req.end(body);
      });
    const socketsSeen = new Set<unknown>();
    try {
      const big = await post('x'.repeat(200 * 1024));
      expect([big.status, big.connection]).toEqual([413, 'close']);
      const next = await post(event('press_release.published'));
      expect(next.status).toBe(401);
      expect(next.sockets).toBe(2);
    } finally {
      agent.destroy();
    }
  });
});

describe('deliveries from the emulator', () => {
  const emu = useEmulator({ frozenClock: true });

  it("verifies the emulator's signed events and coalesces its burst into one build", async () => {
    const { state, run } = fakeBuilds(20);
    const queue = createBuildQueue({ run, debounceMs: 300 });
    const receiver = await startWebhookReceiver({ secret: SECRET, queue });
    try {
      expect((await emu().admin('POST', '/webhooks', { url: `${receiver.url}${WEBHOOK_PATH}`, secret: SECRET })).status).toBe(201);
      const kits = (await emu().json('media_kits?limit=3')).body.data as Array<{ id: number }>;
      for (const kit of kits) {
        const res = await fetch(`${emu().url}/v1/media_kits/${kit.id}/unpublish.json`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${emu().managementKey}` },
        });
        expect(res.status).toBe(200);
      }
      await until(() => queue.status().builds === 1, 'a build');
      await queue.idle();
      expect(state.runs).toBe(1);
      expect(queue.status().last?.requests).toBe(kits.length);
      const deliveries = (await emu().admin('GET', '/webhooks/deliveries')).body.data as Array<{
        type: string;
        state: string;
        attempts: Array<{ status: number | null }>;
      }>;
      expect(deliveries.map((d) => [d.type, d.state, d.attempts.at(-1)?.status])).toEqual(
        kits.map(() => ['media_kit.unpublished', 'delivered', 202]),
      );
    } finally {
      await receiver.close();
    }
  });

  it('hands the build the release a press_release.updated delivery names', async () => {
    const asked: Array<ChangeScope | undefined> = [];
    const queue = createBuildQueue({ run: async (scope) => (asked.push(scope), { ok: true, summary: 'built' }), debounceMs: 50 });
    const receiver = await startWebhookReceiver({ secret: SECRET, queue });
    try {
      expect((await emu().admin('POST', '/webhooks', { url: `${receiver.url}${WEBHOOK_PATH}`, secret: SECRET })).status).toBe(201);
      const [first] = (await emu().json('press_releases?limit=1')).body.data as Array<{ id: number; title: string }>;
      const res = await fetch(`${emu().url}/v1/campaigns/${first!.id}.json`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${emu().managementKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ campaign: { title: `${first!.title}, retitled` } }),
      });
      expect(res.status).toBe(200);
      await until(() => queue.status().builds === 1, 'a build');
      expect(asked).toEqual([{ pressReleases: [String(first!.id)] }]);
    } finally {
      await receiver.close();
    }
  });
});

describe('what deliveries name', () => {
  const release = (type: string, id: unknown) => ({ type, timestamp: '2026-11-01T09:00:00Z', data: { id, object: 'press_release' } });

  it('a release event names its release; any other event, or one without a usable id, may have changed anything', () => {
    expect(scopeOfEvent(release('press_release.updated', 4711))).toEqual({ pressReleases: ['4711'] });
    expect(scopeOfEvent(release('press_release.published', '12'))).toEqual({ pressReleases: ['12'] });
    expect(scopeOfEvent(release('press_release.unpublished', 3))).toEqual({ pressReleases: ['3'] });
    for (const unnamed of [
      { type: 'media_kit.updated', data: { id: 5 } },
      release('press_release.deleted', 5),
      release('press_release.updated', 0),
      release('press_release.updated', -2),
      release('press_release.updated', 1.5),
      release('press_release.updated', '../5'),
      release('press_release.updated', undefined),
      { type: 'press_release.updated' },
      'press_release.updated',
      null,
    ])
      expect(scopeOfEvent(unnamed), JSON.stringify(unnamed)).toBeUndefined();
  });

  it('a burst names every release once; anything in it, or too many releases, makes it anything', () => {
    expect(mergeScopes({ pressReleases: ['1', '2'] }, { pressReleases: ['2', '3'] })).toEqual({ pressReleases: ['1', '2', '3'] });
    expect(mergeScopes({ pressReleases: ['1'] }, undefined)).toBeUndefined();
    expect(mergeScopes(undefined, { pressReleases: ['1'] })).toBeUndefined();
    const many = Array.from({ length: MAX_NAMED_RELEASES }, (_, i) => String(i + 1));
    expect(mergeScopes({ pressReleases: many }, { pressReleases: ['1'] })).toEqual({ pressReleases: many });
    expect(mergeScopes({ pressReleases: many }, { pressReleases: ['999'] })).toBeUndefined();
  });

  it('each build is handed what the requests since the last one named together', async () => {
    const asked: Array<ChangeScope | undefined> = [];
    let finish: (() => void) | undefined;
    const queue = createBuildQueue({
      run: async (scope) => {
        asked.push(scope);
        await new Promise<void>((resolve) => (finish = resolve));
        return { ok: true, summary: 'built' };
      },
      debounceMs: 20,
    });
    queue.request({ pressReleases: ['1'] });
    queue.request({ pressReleases: ['2'] });
    await until(() => asked.length === 1, 'the first build');
    // During it: one named release, then a delivery that names nothing.
    queue.request({ pressReleases: ['3'] });
    queue.request();
    finish!();
    await until(() => asked.length === 2, 'the build after it');
    queue.request({ pressReleases: ['4'] });
    finish!();
    await until(() => asked.length === 3, 'the third build');
    finish!();
    await queue.idle();
    expect(asked).toEqual([{ pressReleases: ['1', '2'] }, undefined, { pressReleases: ['4'] }]);
  });
});

describe('the build queue at its edges', () => {
  it('builds for a request that arrives in the very tick a build ends', async () => {
    let finish!: () => void;
    let current!: Promise<BuildOutcome>;
    let runs = 0;
    const queue = createBuildQueue({
      run: () => {
        runs++;
        current = new Promise<BuildOutcome>((resolve) => {
          finish = () => resolve({ ok: true, summary: `build ${runs}` });
        });
        return current;
      },
      debounceMs: 0,
    });
    queue.request();
    await until(() => runs === 1, 'the first build');
    // Runs after the queue's own continuation of this build: its loop has already decided it is done.
    void current.then(() => queue.request());
    finish();
    await until(() => runs === 2, 'the build for the late request');
    finish();
    await queue.idle();
    expect(queue.status()).toMatchObject({ state: 'idle', pending: false, builds: 2 });
  });

  it('keeps building when reporting a build throws', async () => {
    let runs = 0;
    const queue = createBuildQueue({
      run: async () => ({ ok: true, summary: `build ${++runs}` }),
      debounceMs: 0,
      onBuilt: () => {
        throw new Error('log sink gone');
      },
    });
    queue.request();
    await queue.idle();
    queue.request();
    await queue.idle();
    expect(runs).toBe(2);
  });
});

describe('build and deploy children', () => {
  it('end a command past its time limit, the whole process group with it', async () => {
    const children = new Set<ChildProcess>();
    const lines: string[] = [];
    const started = Date.now();
    // The shell starts a grandchild that would outlive a kill of the shell alone.
    const result = await runChild(
      'echo started; sleep 30 & wait',
      [],
      { cwd: process.cwd(), env: process.env, shell: true, timeoutMs: 300, children },
      (l) => lines.push(l),
    );
    expect(result).toMatchObject({ timedOut: true });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(lines).toEqual(['started']);
    expect(children.size).toBe(0);
  });

  it('report the exit code and the last error line of a command that fails', async () => {
    const result = await runChild(
      'echo progress; echo "deploy target refused" >&2; exit 3',
      [],
      { cwd: process.cwd(), env: process.env, shell: true, timeoutMs: 10_000, children: new Set() },
      () => {},
    );
    expect(result).toEqual({ code: 3, lastError: 'deploy target refused', timedOut: false });
  });
});
