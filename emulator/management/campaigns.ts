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

function tagNamesParam(names: unknown): string[] | undefined {
  if (names === undefined || names === null) return undefined;
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n.trim() === '')) {
    throw new ManagementError(422, `'campaign[tags]' must be an array of tag names`);
  }
  return names as string[];
}

/** The ids of the named tags, creating the ones that do not exist yet. */
function tagIdsFor(req: ManagementRequest, names: string[]): number[] {
  const world = req.store.world;
  return names.map((name) => {
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
  // Every field is read (and refused with 422) before anything changes.
  const title = stringField(hash, g, 'title');
  const summary = stringField(hash, g, 'medium_description');
  const featured = integerField(hash, g, 'featured_image_id');
  if (featured !== undefined && featured !== null && !req.store.mediaById(featured)) {
    throw new ManagementError(422, `'campaign[featured_image_id]' names no image: ${featured}`);
  }
  const locale = stringField(hash, g, 'locale');
  const inTimeline = booleanField(hash, g, 'show_in_timeline');
  const boilerplate = booleanField(hash, g, 'show_boilerplate_text');
  const tagNames = tagNamesParam(hash.tags);
  const releaseDate = dateField(hash, g, 'release_date');
  const publishNow = booleanField(hash, g, 'publish_immediately');

  if (title) {
    release.title = title;
    release.permalink = `/${release.id}-${slugify(title)}`;
  }
  if (summary !== undefined) release.summary = summary;
  if (featured !== undefined) release._featuredImageIds = featured === null ? [] : [featured];
  if (locale) release.language = locale;
  if (inTimeline !== undefined) release.show_in_timeline = inTimeline;
  if (boilerplate !== undefined) release.show_boilerplate_text = boilerplate;
  if (tagNames) release._tagIds = tagIdsFor(req, tagNames);
  if (releaseDate) {
    release.release_date = releaseDate;
    release._visibleFrom = releaseDate;
  }
  if (publishNow) {
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
