/**
 * Campaigns are press releases seen from the editor's side: a campaign id is
 * the release id. Update changes what the public sees; cancel sends it back to
 * draft, which hides it.
 */
import { ManagementError, booleanField, dateField, hashParam, integerField, stringField } from './body.ts';
import { ok, slugify, type ManagementHandler, type ManagementRequest } from './context.ts';
import { publicFields } from '../http/views.ts';
import type { PressRelease, Tag } from '../model/types.ts';

const key = (r: PressRelease) => `press_release:${r.id}`;

function find(req: ManagementRequest): PressRelease {
  const release = req.store.world.pressReleases.find((r) => String(r.id) === req.params.id);
  if (!release) throw new ManagementError(404, `Missing: no campaign ${req.params.id}`);
  return release;
}

function campaignView(r: PressRelease) {
  return { ...publicFields(r), state: r._state, private: r._private, tag_ids: r._tagIds, featured_image_ids: r._featuredImageIds };
}

function tagIdsFor(req: ManagementRequest, names: unknown): number[] {
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n.trim() === '')) {
    throw new ManagementError(422, `'campaign[tags]' must be an array of tag names`);
  }
  const world = req.store.world;
  return (names as string[]).map((name) => {
    const slug = slugify(name);
    let tag = world.tags.find((t) => t.slug === slug || t.name.toLowerCase() === name.toLowerCase());
    if (!tag) {
      tag = {
        id: req.store.nextId('tags'),
        pressroom_id: world.pressroom.id,
        slug,
        name,
        description: null,
        layout: 'default',
        image: null,
        hero_image: null,
      } satisfies Tag;
      world.tags.push(tag);
    }
    return tag.id;
  });
}

const update: ManagementHandler = (req) => {
  const release = find(req);
  const hash = hashParam(req.body, 'campaign');
  const g = 'campaign';
  const title = stringField(hash, g, 'title');
  if (title) {
    release.title = title;
    release.permalink = `/${release.id}-${slugify(title)}`;
  }
  const summary = stringField(hash, g, 'medium_description');
  if (summary !== undefined) release.summary = summary;
  const featured = integerField(hash, g, 'featured_image_id');
  if (featured !== undefined) {
    if (featured !== null && !req.store.mediaById(featured)) throw new ManagementError(422, `'campaign[featured_image_id]' names no image: ${featured}`);
    release._featuredImageIds = featured === null ? [] : [featured];
  }
  const locale = stringField(hash, g, 'locale');
  if (locale) release.language = locale;
  const inTimeline = booleanField(hash, g, 'show_in_timeline');
  if (inTimeline !== undefined) release.show_in_timeline = inTimeline;
  const boilerplate = booleanField(hash, g, 'show_boilerplate_text');
  if (boilerplate !== undefined) release.show_boilerplate_text = boilerplate;
  if (hash.tags !== undefined && hash.tags !== null) release._tagIds = tagIdsFor(req, hash.tags);
  const releaseDate = dateField(hash, g, 'release_date');
  if (releaseDate) {
    release.release_date = releaseDate;
    release._visibleFrom = releaseDate;
  }
  if (booleanField(hash, g, 'publish_immediately')) {
    release._state = 'published';
    release.release_date = req.now.toISOString();
    release._visibleFrom = null;
  }
  release.updated_at = req.now.toISOString();
  return ok(campaignView(release), [key(release)]);
};

const cancel: ManagementHandler = (req) => {
  const release = find(req);
  release._state = 'draft';
  release.updated_at = req.now.toISOString();
  return ok(campaignView(release), [key(release)]);
};

export const CAMPAIGN_ROUTES: ReadonlyArray<readonly [string, string, ManagementHandler]> = [
  ['PUT', '/v1/campaigns/:id', update],
  ['PUT', '/v1/campaigns/:id/cancel', cancel],
];
