/** The thread `readTreeInBackground` starts: lists its folder's files with their sizes and mtimes, hands them over, ends. */
import { parentPort, workerData } from 'node:worker_threads';
import { listFiles, type ListJob } from './output-tree.ts';

const { dir, ...options } = workerData as ListJob;
const listing = await listFiles(dir, options);
parentPort!.postMessage(listing, [listing.sizes.buffer as ArrayBuffer, listing.mtimes.buffer as ArrayBuffer]);
