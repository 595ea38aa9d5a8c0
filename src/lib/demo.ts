/**
 * Is this build the bundled demo press room? Then every page says so and asks
 * not to be indexed, so the fictional company can never pass for a real press
 * room. emulator/embedded.ts registers the demo's upstream on globalThis while
 * it serves a build; read here without importing the emulator into the site.
 */
const DEMO_UPSTREAM = Symbol.for('pressroom-static.demo-upstream');

export function isDemoBuild(): boolean {
  return (globalThis as Record<symbol, unknown>)[DEMO_UPSTREAM] !== undefined;
}

export const DEMO_NOTE = 'Demo press room: a fictional company, built from the demo data bundled with pressroom-static. Not a real press room.';
