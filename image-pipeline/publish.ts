/**
 * What gets copied into `_media/`: every output a page asked for (renditions,
 * downloads, zips), by its output name, and the copy itself at the end of the build.
 */
import { constants as fsConstants } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';

export interface Publisher {
  /** Output name → cached file. */
  readonly published: ReadonlyMap<string, string>;
  /** Publishes `file` as `name` (`<hash>.<ext>`, or `<hash>/<name for people>.<ext>`); returns its site URL. */
  publish(name: string, file: string): string;
  /** Copies every published file into `mediaDir`. */
  emit(mediaDir: string): Promise<{ files: number }>;
}

export function createPublisher(publicPath: string): Publisher {
  const published = new Map<string, string>();
  return {
    published,
    publish(name, file) {
      published.set(name, file);
      return `${publicPath}${name}`;
    },
    async emit(mediaDir) {
      await mkdir(mediaDir, { recursive: true });
      const folders = new Set([...published.keys()].filter((name) => name.includes('/')).map((name) => path.posix.dirname(name)));
      for (const folder of folders) await mkdir(path.join(mediaDir, folder), { recursive: true });
      const copy = pLimit(8);
      await Promise.all(
        [...published].map(([name, file]) => copy(() => copyFile(file, path.join(mediaDir, name), fsConstants.COPYFILE_FICLONE))),
      );
      return { files: published.size };
    },
  };
}
