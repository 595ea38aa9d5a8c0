/**
 * Preloaded into a build (`node --import`): records the URL of every module the
 * process loads, through Node's own loader (scripts, astro.config's externals,
 * every package Vite leaves to Node), and writes them to $RECORD_MODULES_TO at exit.
 */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const seen = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    seen.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  const file = process.env.RECORD_MODULES_TO;
  if (file) writeFileSync(file, [...seen].sort().join('\n'));
});
