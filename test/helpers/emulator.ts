/** Starts an emulator for a test file on 127.0.0.1:0 and closes it afterwards. */
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/server.ts';

/** One media cache for every test run, so images are rendered once per machine. */
export const TEST_MEDIA_CACHE = path.join(os.tmpdir(), 'pressroom-static-test-media');

export function useEmulator(options: EmulatorOptions = {}): () => RunningEmulator & {
  api: (pathAndQuery: string, init?: RequestInit) => Promise<Response>;
  json: <T = any>(pathAndQuery: string, init?: RequestInit) => Promise<{ status: number; body: T; headers: Headers }>;
  admin: <T = any>(method: string, pathAndQuery: string, body?: unknown) => Promise<{ status: number; body: T }>;
  base: string;
} {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ cacheDir: TEST_MEDIA_CACHE, ...options });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('emulator not started');
    const e = emulator;
    const base = `${e.url}/v1/pressrooms/${e.pressroom.id}`;
    const api = (p: string, init?: RequestInit) =>
      fetch(p.startsWith('http') ? p : p.startsWith('/') ? `${e.url}${p}` : `${base}/${p}`, init);
    return {
      ...e,
      base,
      api,
      async json(p, init) {
        const res = await api(p, init);
        return { status: res.status, headers: res.headers, body: (await res.json()) as never };
      },
      async admin(method, p, body) {
        const res = await fetch(`${e.url}/_emulator${p}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as never };
      },
    };
  };
}

/** A call to the emulator's management API (as a PR team's edit), which must answer 200. */
export async function manageEmulator(emulator: RunningEmulator, method: string, route: string, body?: unknown): Promise<void> {
  const response = await fetch(`${emulator.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${emulator.managementKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
}
