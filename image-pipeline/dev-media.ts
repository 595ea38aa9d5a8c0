/** The dev server's `/_media/<name>`: outputs served straight from the cache, as a build would publish them. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FORMAT_INFO } from './sniff.ts';
import type { ImagePipeline } from './types.ts';

/** `<hash>.<ext>`, `<hash>-<w>x<h>.<ext>`, or a download named for people: `<hash>/<slug>.<ext>`. */
const NAME = /^[0-9a-f]{16}(?:(-\d+x\d+)?|\/[a-z0-9-]+)\.[a-z0-9]{2,5}$/;

/** Content type of an output name: FORMAT_INFO covers the rendition formats too. */
function mimeOf(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1);
  for (const info of Object.values(FORMAT_INFO)) if (info.ext === ext) return info.mime;
  return 'application/octet-stream';
}

/** Connect middleware answering `/<mediaDir>/<output name>` from `current()`'s outputs; anything else goes to `next`. */
export function serveMediaFromCache(mediaDir: string, current: () => Promise<ImagePipeline> | undefined) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const url = req.url ?? '';
    const at = url.indexOf(`/${mediaDir}/`);
    if (at < 0) return next();
    const name = decodeURIComponent(url.slice(at + mediaDir.length + 2).split('?')[0] ?? '');
    if (!NAME.test(name)) return next();
    void (async () => {
      const pipeline = await current()?.catch(() => undefined);
      const file = pipeline?.published().get(name);
      if (!file || !(await stat(file).catch(() => undefined))) return next();
      res.setHeader('content-type', mimeOf(name));
      res.setHeader('cache-control', 'no-cache');
      createReadStream(file).pipe(res);
    })();
  };
}
