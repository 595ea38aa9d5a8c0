// @ts-check
import { defineConfig } from 'astro/config';
import sitemap from '@astrojs/sitemap';
import pressroom from './src/integrations/pressroom.ts';
import images from './image-pipeline/integration.ts';
import search from './src/integrations/search.ts';

const site = (process.env.PRESSROOM_SITE_URL || 'http://localhost:4321').replace(/\/+$/, '');

export default defineConfig({
  site,
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  integrations: [pressroom(), sitemap(), images(), search()],
});
