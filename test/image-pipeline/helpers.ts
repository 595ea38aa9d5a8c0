/** Shared bits of the image pipeline tests: temp cache folders, tiny local servers, a pipeline factory. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createImagePipeline, type ImagePipeline, type ImagePipelineOptions } from '../../image-pipeline/index.ts';

export async function tempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `pressroom-images-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface TinyServer {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 port 0 answering with `handler`. */
export async function tinyServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TinyServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Warned {
  lines: string[];
}

/** A pipeline with captured warnings; `fetch` is the global one unless given. */
export function testPipeline(
  options: Partial<ImagePipelineOptions> & Pick<ImagePipelineOptions, 'apiUrl' | 'cacheDir'>,
): ImagePipeline & Warned {
  const lines: string[] = [];
  const pipeline = createImagePipeline({
    fetch: (input, init) => fetch(input, init),
    log: { warn: (line) => lines.push(line) },
    ...options,
  });
  return Object.assign(pipeline, { lines });
}

/** A `sizes` object with one rendition per entry, all with the same URL for the original. */
export function sizes(
  url: string,
  renditions: Record<string, [number, number]>,
): Record<string, { width: number; height: number; url: string }> {
  return Object.fromEntries(
    Object.entries(renditions).map(([name, [width, height]]) => [
      name,
      { width, height, url: name === 'original' ? url : `${url}?${name}` },
    ]),
  );
}
