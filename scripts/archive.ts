/**
 * `npm run archive`: the entry of the archive command (archive-command.ts). It bounds the process's memory
 * (memory-bounds.ts) before anything else loads: the bound restarts the process, and a restart
 * after the command's modules had loaded would load them twice (about a second of CPU each time).
 * Then `--help` and a usage error answer without loading the command (Astro takes seconds).
 */
import path from 'node:path';
import { enableCompileCache } from '../src/config/compile-cache.ts';
import { exitUnlessSourceCondition } from '../src/config/source-condition.ts';
import { boundBuildMemory } from './memory-bounds.ts';
import { parseCommandLine } from './cli.ts';
import { ARCHIVE_COMMAND } from './archive-spec.ts';

exitUnlessSourceCondition('archive');
boundBuildMemory();
const commandLine = parseCommandLine(ARCHIVE_COMMAND);
if ('exit' in commandLine) process.exitCode = commandLine.exit;
else {
  enableCompileCache(path.resolve(import.meta.dirname, '..'));
  await import('./archive-command.ts');
}
