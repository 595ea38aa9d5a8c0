import { configDefaults, defineConfig } from 'vitest/config';
import { sourceCondition } from './src/integrations/source-condition.ts';

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
          name: 'unit',
          include: ['test/**/*.test.ts'],
          // One worker (2 cores) runs the files one after another in one module graph: each file
          // re-importing the loaders, zod and Astro's modules cost 25 % of the unit run, 231 s → 92 s
          // for test/content-loaders + test/site/lib. A test that changes shared state undoes it (afterEach/afterAll).
          isolate: false,
          exclude: [...configDefaults.exclude, 'test/site/built/**', 'test/browser/**'],
        },
      },
      {
        // Tests over the built demo site: test/site/global-setup.ts builds it once per run.
        extends: true,
        test: { name: 'site', include: ['test/site/built/**/*.test.ts'], globalSetup: ['test/site/global-setup.ts'], hookTimeout: 180_000 },
      },
      {
        // Debian's Chromium over the same built site (the same global setup: the site is built once per run).
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/site/global-setup.ts'],
          hookTimeout: 180_000,
          testTimeout: 60_000,
          maxConcurrency: 2,
        },
      },
    ],
  },
});
