/**
 * Is this build the bundled demo press room? Then every page says so and asks
 * not to be indexed, so the fictional company can never pass for a real press
 * room. Set on globalThis by emulator/embedded.ts while it serves a build, and
 * by the loaders' runtime for a snapshot recorded from the demo; read here
 * without importing the emulator into the site.
 */
const DEMO_BUILD = Symbol.for('pressroom-static.demo-build');

export function isDemoBuild(): boolean {
  return (globalThis as Record<symbol, unknown>)[DEMO_BUILD] === true;
}

export const DEMO_NOTE =
  'Demo press room: a fictional company, built from the demo data bundled with pressroom-static. Not a real press room.';
