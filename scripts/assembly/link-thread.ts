/** The thread `linkIntoInBackground` starts: links its job's files, then ends (an error ends it with that error). */
import { workerData } from 'node:worker_threads';
import { linkInto, type LinkJob } from './hard-links.ts';

const { from, to, files } = workerData as LinkJob;
linkInto(from, to, files);
