/**
 * `npm run build`: the entry of the build command (build-command.ts). It bounds the process's memory
 * (memory-bounds.ts) before anything else loads: the bound restarts the process, and a restart
 * after the command's modules had loaded would load them twice (about a second of CPU each time).
 * Then `--help` and a usage error answer without loading the command (Astro takes seconds). Node's
 * compile cache is turned on before the command loads (src/config/compile-cache.ts).
 */
import path from 'node:path';
import { enableCompileCache } from '../src/config/compile-cache.ts';
import { exitUnlessSourceCondition } from '../src/config/source-condition.ts';
import { boundBuildMemory } from './memory-bounds.ts';
import { parseCommandLine } from './cli.ts';
import { BUILD_COMMAND } from './build-spec.ts';

exitUnlessSourceCondition('build');
boundBuildMemory();
const commandLine = parseCommandLine(BUILD_COMMAND);
if ('exit' in commandLine) process.exitCode = commandLine.exit;
else {
  enableCompileCache(path.resolve(import.meta.dirname, '..'));
  const { runBuildCommand } = await import('./build-command.ts');
  const { closeDemoApis } = await import('../src/config/demo-upstream.ts');
  try {
    process.exitCode = await runBuildCommand();
  } finally {
    await closeDemoApis();
  }
}
