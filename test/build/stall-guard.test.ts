/**
 * Work that can never settle becomes an error the caller handles (src/lib/stall-guard.ts):
 * without the guard Node ends such a process with exit 13 and nothing said. Each case runs in a
 * process of its own, since what the guard watches is that process's event loop running dry.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const guard = pathToFileURL(path.resolve(import.meta.dirname, '..', '..', 'src', 'lib', 'stall-guard.ts')).href;
const run = promisify(execFile);

/** Runs `body` as a module with `settledOrStalled` imported; its exit code and output. */
async function script(body: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const source = `import { settledOrStalled } from ${JSON.stringify(guard)};\n${body}`;
  try {
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', source], { timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const never = 'new Promise(() => {})';

describe('settledOrStalled', () => {
  it('turns work that can never settle into the caller error, so its failure path runs', async () => {
    const bare = await script(`await ${never};`);
    expect(bare.code).toBe(13);

    const guarded = await script(
      `try { await settledOrStalled(${never}, () => new Error('the indexer stopped')); }
       catch (error) { console.log('handled: ' + error.message); process.exitCode = 1; }`,
    );
    expect(guarded.stdout.trim()).toBe('handled: the indexer stopped');
    expect(guarded.code).toBe(1);
  });

  it('leaves work alone while anything could still settle it', async () => {
    const { code, stdout } = await script(
      `const late = new Promise((resolve) => setTimeout(() => resolve('done after 300 ms'), 300));
       console.log(await settledOrStalled(late, () => new Error('stalled')));
       console.log(process.listenerCount('beforeExit'));`,
    );
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual(['done after 300 ms', '0']);
  });

  it('lets the innermost guard name what stopped; the outer one gets its error', async () => {
    const { code, stdout } = await script(
      `// As in a build: the outer guard waits first, the inner one starts within the work it guards.
       const work = (async () => {
         await null;
         try { await settledOrStalled(${never}, () => new Error('search index (en): Pagefind stopped')); }
         // What a caller does on the way out (Astro logging a failed hook) takes a turn of the loop.
         catch (error) { await new Promise((r) => setTimeout(r, 50)); throw error; }
       })();
       try { await settledOrStalled(work, () => new Error('the build stopped')); }
       catch (error) { console.log(error.message); }`,
    );
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('search index (en): Pagefind stopped');
  });

  it('gives up the outer work too when the inner error never reaches it', async () => {
    const { stdout } = await script(
      `const work = (async () => {
         await null;
         await settledOrStalled(${never}, () => new Error('inner')).catch(() => console.log('inner gave up'));
         await ${never};
       })();
       try { await settledOrStalled(work, () => new Error('the build stopped')); }
       catch (error) { console.log(error.message); }`,
    );
    expect(stdout.trim().split('\n')).toEqual(['inner gave up', 'the build stopped']);
  });
});
