/**
 * Work a build runs on a worker thread of its own (the file system calls of walking or linking a site),
 * so that its one JavaScript thread goes on rendering or handling the API's answers meanwhile.
 */
import { Worker } from 'node:worker_threads';

/**
 * Runs `script` on a new thread with `data` as its `workerData`. Resolves once the thread ended,
 * with the message it posted (undefined when it posted none); rejects with its error, or, when it
 * ended otherwise, with one line naming `what`.
 */
export function onThread<T>(script: URL, data: unknown, what: string): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: data });
    let message: T | undefined;
    let failed: Error | undefined;
    worker.once('message', (posted: T) => (message = posted));
    worker.once('error', (error: Error) => (failed ??= error));
    worker.once('exit', (code) => {
      if (failed) reject(failed);
      else if (code !== 0) reject(new Error(`${what}: the thread ended with code ${code}`));
      else resolve(message);
    });
  });
}
