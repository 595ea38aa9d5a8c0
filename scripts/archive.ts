/**
 * `npm run archive`: the entry of the archive command (archive-command.ts). It bounds the process's memory
 * (memory-bounds.ts) before anything else loads: the bound restarts the process, and a restart
 * after the command's modules had loaded would load them twice (about a second of CPU each time).
 */
import { exitUnlessSourceCondition } from '../src/config/source-condition.ts';
import { boundBuildMemory } from './memory-bounds.ts';

exitUnlessSourceCondition('archive');
boundBuildMemory();
await import('./archive-command.ts');
