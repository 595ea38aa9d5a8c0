/**
 * Every `sizes` object of an emulated press room (images, movies, videos, documents, clippings,
 * tags' images, contacts' avatars, the logo): the originals the image benchmarks make renditions of.
 */
import type { MediaInput } from '../image-pipeline/index.ts';
import type { EmulatorProcess } from './emulator-process.ts';

export async function pressRoomMedia(emulator: EmulatorProcess): Promise<MediaInput[]> {
  const base = `${emulator.url}/v1/pressrooms/${emulator.pressroomId}`;
  const list = async (p: string) => ((await (await fetch(`${base}/${p}`)).json()) as { data: Array<Record<string, unknown>> }).data;
  const media: MediaInput[] = [];
  const add = (sizes: unknown) => {
    if (sizes && typeof sizes === 'object' && Object.keys(sizes).length > 0) media.push({ sizes: sizes as MediaInput['sizes'] });
  };
  for (const p of ['images', 'movies', 'videos', 'documents', 'clippings'])
    for (const item of await list(`${p}?limit=10000`)) add(item.sizes);
  for (const tag of await list('tags?limit=10000')) {
    add(tag.image);
    add(tag.hero_image);
  }
  for (const contact of await list('pr_contacts?limit=10000')) add(contact.avatar);
  const pressroom = ((await (await fetch(base)).json()) as { data?: { logo?: { original_url?: string; width?: number; height?: number } } })
    .data;
  if (pressroom?.logo?.original_url)
    add({ original: { url: pressroom.logo.original_url, width: pressroom.logo.width, height: pressroom.logo.height } });
  return media;
}
