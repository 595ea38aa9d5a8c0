import { readFile } from 'node:fs/promises';
import type { VideoAssetSpec } from '../model/types.ts';

/**
 * The two committed sample videos (2 s, 320x180, no audio). Made once with
 * ffmpeg 5.1 as a development step; nothing at run time needs ffmpeg:
 *
 *   F="gradients=s=320x180:r=24:d=2:c0=0x2b5876:c1=0x4e4376:c2=0xf0a35e:nb_colors=3:speed=0.03:seed=7,drawbox=x=(iw-80)/2+60*sin(t*3.14):y=(ih-80)/2:w=80:h=80:color=white@0.5:t=fill"
 *   ffmpeg -f lavfi -i "$F" -t 2 -c:v libx264 -profile:v main -pix_fmt yuv420p -preset veryslow -crf 26 \
 *     -movflags +faststart -map_metadata -1 -fflags +bitexact -flags:v +bitexact -x264-params threads=1 sample.mp4
 *   ffmpeg -f lavfi -i "$F" -t 2 -c:v libvpx-vp9 -pix_fmt yuv420p -b:v 0 -crf 34 -deadline good -cpu-used 2 \
 *     -row-mt 0 -threads 1 -map_metadata -1 -fflags +bitexact -flags:v +bitexact sample.webm
 */
const FIXTURES: Record<VideoAssetSpec['format'], URL> = {
  mp4: new URL('./fixtures/sample.mp4', import.meta.url),
  webm: new URL('./fixtures/sample.webm', import.meta.url),
};

export function videoContentType(format: VideoAssetSpec['format']): string {
  return format === 'webm' ? 'video/webm' : 'video/mp4';
}

const loaded = new Map<VideoAssetSpec['format'], Promise<Buffer>>();

/** The fixture's bytes, read once per process (they are a few kilobytes). */
export function renderVideo(spec: VideoAssetSpec): Promise<Buffer> {
  let bytes = loaded.get(spec.format);
  if (!bytes) {
    const url = FIXTURES[spec.format];
    if (!url) throw new RangeError(`unknown video format ${String(spec.format)}`);
    bytes = readFile(url);
    bytes.catch(() => loaded.delete(spec.format));
    loaded.set(spec.format, bytes);
  }
  return bytes;
}
