/**
 * Is this build the bundled demo press room? Then every page says so and asks
 * not to be indexed, so the fictional company can never pass for a real press
 * room. Marked in the build session (src/config/demo-state.ts) while the demo API
 * serves a build, and by the loaders' runtime for a snapshot recorded from the
 * demo (the emulator itself is never imported into the pages).
 */
export { isDemoBuild } from '../config/demo-state.ts';

export const DEMO_NOTE =
  'Demo press room: a fictional company, built from the demo data bundled with pressroom-static. Not a real press room.';
