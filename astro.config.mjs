// @ts-check
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import sitemap from '@astrojs/sitemap';
import pressroom from './src/integrations/pressroom.ts';
import images from './src/integrations/images.ts';
import search from './src/integrations/search.ts';
import dataStoreAtRender from './src/integrations/data-store-at-render.ts';
import siteIcons from './src/integrations/site-icons.ts';
import indexNowKey from './src/integrations/indexnow-key.ts';
import { sourceCondition } from './src/integrations/source-condition.ts';
import { isLegacyPath, routePath } from './src/lib/paths.ts';
import { loadDotEnv } from './src/config/dot-env.ts';
import { loadConfig } from './src/config/environment.ts';
import { sessionConfigOr } from './src/config/session.ts';

// The configuration contract's .env file, before anything reads PRESSROOM_* (the site URL just below).
loadDotEnv(fileURLToPath(new URL('.', import.meta.url)));

// The build's configuration, parsed once here (or by the script running Astro) and handed to every integration that
// reads it; the content config and the pages read the same object from the build session (src/config/session.ts).
// Validated by the configuration contract (a URL without scheme is one line naming the variable, not Astro's "Invalid URL").
const config = sessionConfigOr(() => loadConfig(process.env));
// The site URL's path is the base every URL of the site is written under (`https://example.com/press/` → `/press/releases/`).
const { siteOrigin, basePath } = config;
const base = basePath.replace(/\/?$/, '/');

export default defineConfig({
  site: siteOrigin,
  base: basePath,
  trailingSlash: 'ignore',
  // Four pages at once: a cold build's image work then keeps both cores busy (scale 1000: 3 m 52 s → 2 m 26 s, same bytes).
  build: { format: 'directory', concurrency: 4 },
  // The workspace packages run from their TypeScript sources here, not from the dist/ they publish.
  vite: { plugins: [sourceCondition()] },
  // Redirect pages at the hosted newsroom's old addresses are not pages of their own.
  integrations: [
    pressroom(),
    dataStoreAtRender(),
    sitemap({ filter: (page) => !isLegacyPath(routePath(new URL(page).pathname, base)) }),
    images({ config }),
    siteIcons({ config }),
    indexNowKey({ config }),
    search(),
  ],
});
