/**
 * Ties the hidden items into the rest of the press room, so a client that
 * sees more than the public view (a key with more rights, `leakHidden`) meets
 * each of them on every route an item can come from: tagged routes, the
 * `includes` of public releases, kits in hidden categories. The public view
 * filters every one of these links, so public answers do not change.
 */
import { isPublic } from '../model/visibility.ts';
import type { MediaKit, Visibility, World } from '../model/types.ts';

export function linkHiddenItems(world: World, now: Date): void {
  const hidden = <T extends Visibility>(rows: T[]) => rows.filter((r) => !isPublic(r, now));
  const firstTag = world.tags[0]?.id;

  // Every hidden item can be found through a tag.
  if (firstTag !== undefined) {
    for (const rows of [world.pressReleases, world.clippings, world.events, world.pages, world.mediaKits] as Array<
      Array<Visibility & { _tagIds: number[] }>
    >) {
      for (const item of hidden(rows)) if (item._tagIds.length === 0) item._tagIds = [firstTag];
    }
  }

  const publicReleases = world.pressReleases.filter((r) => isPublic(r, now) && r.release_date !== null);
  const newest = publicReleases.reduce<(typeof publicReleases)[number] | undefined>(
    (best, r) => (best === undefined || r.release_date! > best.release_date! ? r : best),
    undefined,
  );
  if (newest) {
    // A private clipping about the newest public release (its `includes=clippings`).
    for (const clipping of hidden(world.clippings)) clipping.press_release_id ??= newest.id;
    // A locked kit's confidential image among that release's featured images (its `includes=featured_images`).
    const closedImage = world.images.find((m) => m._private);
    if (closedImage && !newest._featuredImageIds.includes(closedImage.id)) newest._featuredImageIds.push(closedImage.id);
  }

  // The unpublished kit in the unpublished category, the embargoed kit in the embargoed one.
  const category = (pick: (c: Visibility) => boolean) => world.mediaKitCategories.find((c) => pick(c));
  const embargoed = (r: Visibility) => r._visibleFrom !== null && Date.parse(r._visibleFrom) > now.getTime();
  const moves: Array<[MediaKit | undefined, number | undefined]> = [
    [world.mediaKits.find((k) => k._state !== 'published'), category((c) => c._state !== 'published')?.id],
    [world.mediaKits.find((k) => k._state === 'published' && embargoed(k)), category((c) => c._state === 'published' && embargoed(c))?.id],
  ];
  for (const [kit, categoryId] of moves) {
    if (!kit || categoryId === undefined) continue;
    kit.category_id = categoryId;
    kit.position = world.mediaKits.filter((k) => k.category_id === categoryId).length;
  }
}
