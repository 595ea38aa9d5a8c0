/**
 * Preloaded into a build (`node --import`) to stand for a part that dies without an answer: every
 * `fs/promises` `writeFile` of a path ending in `STALLED_WRITE_ENDING` returns a promise that never
 * settles, and nothing keeps the event loop alive for it, as with a child process that has gone.
 */
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

const ending = process.env.STALLED_WRITE_ENDING;
if (ending) {
  const writeFile = fsp.writeFile;
  fsp.writeFile = ((file: Parameters<typeof writeFile>[0], ...rest: unknown[]) =>
    String(file).endsWith(ending)
      ? new Promise<void>(() => undefined)
      : (writeFile as (...args: unknown[]) => Promise<void>)(file, ...rest)) as typeof writeFile;
  // Named imports of node:fs/promises (the search integration's) see the replacement too.
  syncBuiltinESMExports();
}
