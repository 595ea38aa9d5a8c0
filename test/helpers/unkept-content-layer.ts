/**
 * Preloaded into the warm renderer (`node --import`) to stand for an Astro whose internals have
 * another shape (scripts/warm/astro-internals.ts): the content layer singleton's `init` can no
 * longer be wrapped (the assignment is ignored), so the layer the build syncs with is not kept,
 * while Astro itself builds as ever.
 */
const instanceUrl = new URL('./dist/content/instance.js', import.meta.resolve('astro/package.json'));
const { globalContentLayer } = (await import(instanceUrl.href)) as { globalContentLayer: { init: unknown } };
const init = globalContentLayer.init;
Object.defineProperty(globalContentLayer, 'init', { get: () => init, set: () => undefined, configurable: true });
