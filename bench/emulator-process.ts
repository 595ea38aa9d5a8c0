/**
 * The emulator in a process of its own, as a real API is: its generation,
 * serialisation and media rendering take no CPU time of the measured process.
 * Media originals are cached on disk by the emulator (`.cache/emulator-media`),
 * so after the first run it serves files rather than rendering them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { emulatorFlags, type Profile } from './profiles.ts';

export interface EmulatorProcess {
  url: string;
  pressroomId: number;
  /** Milliseconds from spawn to listening (generation included). */
  startMs: number;
  /** POST to the admin path (`/_emulator/...`). */
  admin(pathname: string, body: unknown): Promise<Response>;
  stop(): Promise<void>;
}

const CLI = path.resolve(import.meta.dirname, '..', 'emulator', 'cli.ts');

export async function startEmulatorProcess(profile: Profile): Promise<EmulatorProcess> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [CLI, '--port', '0', '--frozen-clock', ...emulatorFlags(profile)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { url, pressroomId } = await new Promise<{ url: string; pressroomId: number }>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`bench: the emulator exited (${code}) before listening`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const listening = /listening on (http:\/\/\S+)/.exec(out);
      const room = /press room\s+(\d+)/.exec(out);
      if (listening && room) resolve({ url: listening[1]!, pressroomId: Number(room[1]) });
    });
  });
  const startMs = performance.now() - started;
  return {
    url,
    pressroomId,
    startMs,
    admin: (pathname, body) =>
      fetch(`${url}/_emulator/${pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
