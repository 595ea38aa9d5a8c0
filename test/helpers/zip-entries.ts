/** The names of a zip file's entries, in the order they are stored. */
import yauzl from 'yauzl';

export async function zipEntryNames(file: string): Promise<string[]> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  const names: string[] = [];
  try {
    for await (const entry of zip.eachEntry()) names.push(entry.fileName);
  } finally {
    zip.close();
  }
  return names;
}
