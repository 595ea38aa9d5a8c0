/**
 * The `.env` file of the configuration contract (environment variables, a
 * `.env` file too). Astro's own `.env` loading only reaches
 * `import.meta.env`, not the `process.env` that astro.config.mjs, the
 * integrations and the command-line scripts read, so each of them calls this
 * first. Variables already set in the environment win over the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

/** Sets the variables of `<dir>/.env` that `env` does not have yet; returns their names. */
export function loadDotEnv(dir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const file = path.join(dir, '.env');
  if (!existsSync(file)) return [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
