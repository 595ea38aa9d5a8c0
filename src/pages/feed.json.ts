/** /feed.json: every press release (see src/lib/feeds.ts). */
import type { APIRoute } from 'astro';
import { feedResponse } from '../lib/feeds.ts';

export const GET: APIRoute = ({ site }) => feedResponse({ kind: 'all' }, 'feed.json', site);
