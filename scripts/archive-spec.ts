/**
 * What `npm run archive` accepts: its flags, the variables it reads and its help. Apart from the
 * command (archive-command.ts) so that `--help` and a usage error answer before Astro loads.
 */
import type { CommandSpec } from './cli.ts';

export const ARCHIVE_COMMAND: CommandSpec = {
  name: 'archive',
  summary: [
    'Makes an offline press archive: DIR/site/ (the press room, opening from the folder with no server),',
    'DIR/snapshot/ (what it was built from) and DIR.zip. Records a snapshot first unless one is given.',
  ].join('\n'),
  flags: {
    out: { type: 'string', value: 'DIR', required: true, help: 'the archive folder (required); DIR.zip is written beside it' },
    snapshot: {
      type: 'string',
      value: 'SNAPSHOT',
      help: 'archive this recorded snapshot instead of recording one (default: PRESSROOM_SNAPSHOT)',
    },
    wait: { type: 'string', value: 'SECONDS', help: 'how long to wait for a build of this project or folder to finish (default 600)' },
    demo: { type: 'boolean', help: 'archive the bundled demo press room (a fictional company)' },
  },
  variables: {
    PRESSROOM_API_URL: 'the Newsroom API to record (none: the demo press room)',
    PRESSROOM_ID: 'press room id or domain',
    PRESSROOM_API_KEY: 'API key (never recorded)',
    PRESSROOM_SNAPSHOT: 'a recorded snapshot to archive',
    PRESSROOM_IMAGE_HOSTS: 'extra hosts media may come from',
    PRESSROOM_CONCURRENCY: 'concurrent requests and downloads',
  },
};
