/**
 * Preloaded into the warm renderer (`node --import`) to stand for an Astro whose internals have
 * another shape (scripts/warm/astro-internals.ts): the content layer singleton's `init` can no
 * longer be wrapped (the assignment is ignored), so the layer the build syncs with is not kept,
 * while Astro itself builds as ever.
 */
import { contentLayerSingleton } from '../../scripts/warm/astro-internals.ts';

const singleton = await contentLayerSingleton();
if (!singleton) throw new Error('unkept-content-layer: Astro has no content-layer singleton to hold');
const init = singleton.init;
Object.defineProperty(singleton, 'init', { get: () => init, set: () => undefined, configurable: true });
