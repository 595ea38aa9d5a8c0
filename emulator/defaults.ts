/**
 * The emulator's defaults, in a module without dependencies, so the CLI can
 * answer `--help` and usage errors without loading the generator and sharp.
 */

/** The instant the demo press room is arranged around, unless `now` is given. */
export const DEMO_NOW = '2026-11-01T09:00:00.000Z';
/** Number of press releases of the demo press room. */
export const DEMO_SCALE = 60;
export const DEMO_SEED = 1;
/** The fewest images and media kits a press room has at any scale, and the least `--images`/`--kits` accept. */
export const MIN_IMAGES = 12;
export const MIN_KITS = 4;
export const DEFAULT_MANAGEMENT_KEY = 'emulator-management-key';

/** `current`: the documented shapes. `legacy`: the older, sparser ones the live API is known to send. */
export type Shapes = 'current' | 'legacy';
export const SHAPES: readonly Shapes[] = ['current', 'legacy'];
