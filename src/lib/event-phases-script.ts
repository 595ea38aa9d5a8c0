/** The view-time script of events (src/scripts/event-phases.js) as pages inline it: without its comments. */
import source from '../scripts/event-phases.js?raw';

export const eventPhasesScript: string = source.replace(/^\/\*[\s\S]*?\*\/\n/, '').replace(/^\s*\/\/.*\n/gm, '');
