/** The counters of one build (`stats()`), shared by every step that downloads, decodes, encodes or writes. */
import type { PipelineStats } from './types.ts';

/** Every counter at zero. `published` is filled in when the stats are read. */
export function createStats(): PipelineStats {
  return {
    originals: 0,
    downloads: 0,
    downloadedBytes: 0,
    notModified: 0,
    trusted: 0,
    retries: 0,
    sharpOps: 0,
    decodes: 0,
    peakRawBytes: 0,
    encoded: 0,
    toEncode: 0,
    reused: 0,
    fromStore: 0,
    zipsWritten: 0,
    refused: 0,
    published: 0,
  };
}
