/**
 * What `npm run build` accepts: its flags, the variables it reads and its help. Apart from the
 * command (build-command.ts) so that `--help` and a usage error answer before Astro loads.
 */
import type { CommandSpec } from './cli.ts';

export const DEFAULT_WAIT_S = 600;

export const BUILD_COMMAND: CommandSpec = {
  name: 'build',
  summary: [
    'Builds the static press room from the Newsroom API (or a snapshot) into --out. The site is built',
    'in a staging folder and swapped in only when complete: a failed build leaves the previous site',
    'exactly as it was. One build per project and output folder at a time; a second one waits.',
  ].join('\n'),
  flags: {
    out: {
      type: 'string',
      value: 'DIR',
      help: 'where the site goes (default dist/ in the project); a new folder, an empty one or an earlier build',
    },
    wait: {
      type: 'string',
      value: 'SECONDS',
      help: `how long to wait for another build of this project or folder to finish, and with PRESSROOM_QUEUE_URL for a worker to take the image jobs (default ${DEFAULT_WAIT_S}; 0: fail at once)`,
    },
    demo: { type: 'boolean', help: 'build the bundled demo press room (a fictional company, every page marked noindex and "demo")' },
    strict: { type: 'boolean', help: 'fail on any data warning (a dropped field, a skipped item); same as PRESSROOM_STRICT=1' },
    force: { type: 'boolean', help: 'render even when nothing changed since the site in --out was built (see DIR.fingerprint.json)' },
    'no-notify': {
      type: 'boolean',
      help: 'tell no WebSub hub or IndexNow: a later step puts the site online (npm run deploy -- --notify tells them then)',
    },
  },
  variables: {
    PRESSROOM_API_URL: 'the Newsroom API base URL',
    PRESSROOM_ID: 'press room id or domain',
    PRESSROOM_API_KEY: 'API key (never printed or written)',
    PRESSROOM_SNAPSHOT: 'build from a recorded snapshot folder instead, offline',
    PRESSROOM_SITE_URL: 'public URL of the site, e.g. https://press.example.com (required for a real press room)',
    PRESSROOM_IMAGE_HOSTS: 'extra hosts images may come from',
    PRESSROOM_CONCURRENCY: 'concurrent requests and downloads (default 8)',
    PRESSROOM_STRICT: '1: fail on any data warning instead of publishing the rest',
    PRESSROOM_CACHE_DIR: 'where the HTTP and image caches live (default .cache/ in the project)',
    PRESSROOM_WEBSUB_HUB: 'WebSub hub every feed names; told of each feed a build changes (default: off)',
    PRESSROOM_INDEXNOW_KEY: 'IndexNow key: the site serves /<key>.txt; changed pages are submitted (default: off)',
    PRESSROOM_INDEXNOW_ENDPOINT: 'where IndexNow submissions go (default https://api.indexnow.org/indexnow)',
  },
  notes: [
    'With no PRESSROOM_* variable at all (in the environment or .env) it builds the bundled demo press room;',
    'any PRESSROOM_* variable without PRESSROOM_API_URL or PRESSROOM_SNAPSHOT is a configuration error.',
    'When the code, the configuration, every API answer and media original (304s), the build day and the site',
    'itself are as recorded in DIR.fingerprint.json, it confirms the site and renders nothing ("nothing changed',
    'since ..."); --force renders anyway. Every good build writes DIR.changes.json: the files and URLs added,',
    'changed and removed (what a CDN must purge), and DIR.data-report.json when it rendered.',
    'Otherwise it renders only the routes the change touches (DIR.routes.json records what each route was made of)',
    'and takes every other file from the previous site: the same bytes as a full build. It renders in full, saying why,',
    'when it cannot prove which routes changed (no record, other code, configuration or build day); --force renders all.',
    'A build that changed the site tells the WebSub hub and IndexNow, when set, unless PRESSROOM_DEPLOY_COMMAND is set',
    '(then npm run webhooks tells them after the deploy) or --no-notify is given; a failure there is a warning, never a failed build.',
  ],
};
