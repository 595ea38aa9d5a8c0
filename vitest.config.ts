import { configDefaults, defineConfig } from 'vitest/config';
import { sourceCondition } from './src/integrations/source-condition.ts';

/**
 * Files that build in this checkout or write into it (Astro's caches, the project build lock, packed
 * packages' dist/) run first, one at a time. The rest only read: the sites the global setup built,
 * temp folders, servers on port 0. They run after, two files at a time (2 cores: one file waits on
 * a child process or Chromium while the other runs). Same-group projects share one worker count.
 * Running the two groups side by side (two vitests, the readers niced) was tried: 1,071 s against
 * 1,074 s, as the builds slowed by as much as the readers gained (2 cores, busy in both groups).
 */
// test/deploy and test/scale-out read: a site in a temp folder, s3rver and Redis on port 0.
const BUILDS = ['test/build/**', 'test/packages/**', 'test/webhooks/**', 'test/archive/**', 'test/bench/**'];
// Files of those folders that only read: no build, no lock on the checkout (cli.test's commands stop before either).
const READERS_IN_BUILDS = ['test/build/cli.test.ts', 'test/build/staged-output.test.ts'];
// Isolated and one worker, these run in a group of their own after all the others (Vitest's rule for such projects).
const BUILDS_IN_BROWSER = ['test/browser/brand.test.ts', 'test/browser/dev-server.test.ts'];
const builds = { sequence: { groupOrder: 0 }, maxWorkers: 1 };
const readers = { sequence: { groupOrder: 1 }, maxWorkers: 2 };

// One worker runs its files one after another in one module graph (isolate: false): each file
// re-importing the loaders, zod and Astro's modules cost 25 % of the unit run, 231 s → 92 s for
// test/content-loaders + test/site/lib. A test that changes shared state undoes it (afterEach/afterAll).
const unit = { isolate: false, exclude: [...configDefaults.exclude, 'test/site/built/**', 'test/browser/**'] };
const browser = { hookTimeout: 180_000, testTimeout: 60_000, maxConcurrency: 2 };
// Tests over the built demo site: test/site/global-setup.ts builds it once per run.
const builtSite = { globalSetup: ['test/site/global-setup.ts'], hookTimeout: 180_000 };

export default defineConfig({
  // The workspace packages run from their TypeScript sources, not from the dist/ they publish.
  plugins: [sourceCondition()],
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'builds',
          include: BUILDS.map((dir) => `${dir}/*.test.ts`),
          ...unit,
          exclude: [...unit.exclude, ...READERS_IN_BUILDS],
          ...builds,
        },
      },
      { extends: true, test: { name: 'browser-builds', include: BUILDS_IN_BROWSER, ...browser, ...builds } },
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], ...unit, exclude: [...unit.exclude, ...BUILDS], ...readers },
      },
      { extends: true, test: { name: 'unit-cli', include: READERS_IN_BUILDS, ...unit, ...readers } },
      { extends: true, test: { name: 'site', include: ['test/site/built/**/*.test.ts'], ...builtSite, ...readers } },
      // Debian's Chromium over the same built site.
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], exclude: BUILDS_IN_BROWSER, ...builtSite, ...browser, ...readers },
      },
    ],
  },
});
