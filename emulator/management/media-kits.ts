/** Media kit management: create, update, publish, embargo, unpublish, positions, recategorise, delete. */
import { ManagementError, booleanField, dateField, hashParam, integerField, positionsOf, stringField } from './body.ts';
import { ok, pendingEmbargo, slugify, type ManagementHandler, type ManagementRequest } from './context.ts';
import { adminCategoryView } from './categories.ts';
import { publicFields } from '../http/views.ts';
import type { MediaKit } from '../model/types.ts';

const key = (k: MediaKit) => `media_kit:${k.id}`;

function adminKitView(req: ManagementRequest, kit: MediaKit, withCategory = false) {
  const category = kit.category_id === null ? undefined : req.store.categoryById(kit.category_id);
  return {
    ...publicFields(kit),
    state: kit._state,
    publish_date: kit._visibleFrom,
    embargo_date: pendingEmbargo.get(kit) ?? null,
    media_ids: kit._mediaIds,
    ...(withCategory && { category: category ? adminCategoryView(category) : null }),
  };
}

function find(req: ManagementRequest): MediaKit {
  const kit = req.store.world.mediaKits.find((k) => String(k.id) === req.params.id);
  if (!kit) throw new ManagementError(404, `Missing: no media kit ${req.params.id}`);
  return kit;
}

function categoryParam(req: ManagementRequest, value: number | null | undefined): number | null | undefined {
  if (value !== undefined && value !== null && !req.store.categoryById(value)) {
    throw new ManagementError(422, `'category_id' names no media kit category: ${value}`);
  }
  return value;
}

const list: ManagementHandler = (req) => {
  const withCategories = booleanField(Object.fromEntries(req.query), 'query', 'include_categories') ?? false;
  return ok(req.store.world.mediaKits.map((k) => adminKitView(req, k, withCategories)));
};

const show: ManagementHandler = (req) => ok(adminKitView(req, find(req), true));

const create: ManagementHandler = (req) => {
  const hash = hashParam(req.body, 'media_kit');
  const title = stringField(hash, 'media_kit', 'title', { required: true })!;
  integerField(hash, 'media_kit', 'user_id', { required: true });
  const description = stringField(hash, 'media_kit', 'description') ?? null;
  const categoryId = categoryParam(req, integerField(hash, 'media_kit', 'category_id')) ?? null;
  const now = req.now.toISOString();
  const id = req.store.nextId('mediaKits');
  const kit: MediaKit = {
    id,
    pressroom_id: req.store.world.pressroom.id,
    title,
    description_title: null,
    description,
    category_id: categoryId,
    position: req.store.world.mediaKits.reduce((max, k) => Math.max(max, k.position), 0) + 1,
    is_locked: false,
    is_password_protected: false,
    permalink: `/media_kits/${id}-${slugify(title)}`,
    created_at: now,
    updated_at: now,
    _state: 'draft',
    _private: false,
    _visibleFrom: null,
    _mediaIds: [],
    _tagIds: [],
  };
  req.store.world.mediaKits.push(kit);
  return ok(adminKitView(req, kit), [key(kit)], 201);
};

const update: ManagementHandler = (req) => {
  const kit = find(req);
  const hash = hashParam(req.body, 'media_kit');
  // Every field is read (and refused with 422) before anything changes.
  const title = stringField(hash, 'media_kit', 'title', { required: true })!;
  const description = stringField(hash, 'media_kit', 'description');
  const embargo = dateField(hash, 'media_kit', 'embargo_date');
  kit.title = title;
  if (description !== undefined) kit.description = description;
  if (embargo) pendingEmbargo.set(kit, embargo);
  else if (embargo === null) pendingEmbargo.delete(kit);
  kit.updated_at = req.now.toISOString();
  return ok(adminKitView(req, kit), [key(kit)]);
};

const publish: ManagementHandler = (req) => {
  const kit = find(req);
  kit._state = 'published';
  kit._visibleFrom = null;
  kit.updated_at = req.now.toISOString();
  return ok(adminKitView(req, kit), [key(kit)]);
};

const publishUnderEmbargo: ManagementHandler = (req) => {
  const kit = find(req);
  const embargo = dateField(req.body, 'body', 'embargo_date') ?? pendingEmbargo.get(kit);
  if (!embargo)
    throw new ManagementError(422, `media kit ${kit.id} has no embargo_date: send {"embargo_date": "<ISO>"} or set it with update first`);
  kit._state = 'published';
  kit._visibleFrom = embargo;
  kit.updated_at = req.now.toISOString();
  return ok(adminKitView(req, kit), [key(kit)]);
};

const unpublish: ManagementHandler = (req) => {
  const kit = find(req);
  kit._state = 'unpublished';
  kit.updated_at = req.now.toISOString();
  return ok(adminKitView(req, kit), [key(kit)]);
};

const updatePositions: ManagementHandler = (req) => {
  const positions = positionsOf(req.body, 'media_kit_positions', 'media kit', (id) => req.store.world.mediaKits.find((k) => k.id === id));
  for (const { record, position } of positions) record.position = position;
  return ok(
    req.store.world.mediaKits.map((k) => adminKitView(req, k)),
    positions.map(({ record }) => key(record)),
  );
};

const updateCategory: ManagementHandler = (req) => {
  const kit = find(req);
  const value = integerField(req.body, 'body', 'category_id');
  kit.category_id = categoryParam(req, value) ?? null;
  kit.updated_at = req.now.toISOString();
  return ok(adminKitView(req, kit, true), [key(kit)]);
};

const destroy: ManagementHandler = (req) => {
  const kit = find(req);
  req.store.world.mediaKits = req.store.world.mediaKits.filter((k) => k !== kit);
  return ok({ id: kit.id, deleted: true }, [key(kit)]);
};

export const MEDIA_KIT_ROUTES: ReadonlyArray<readonly [string, string, ManagementHandler]> = [
  ['GET', '/v1/media_kits', list],
  ['GET', '/v1/media_kits/:id', show],
  ['POST', '/v1/media_kits', create],
  ['PUT', '/v1/media_kits/update_positions', updatePositions],
  ['PUT', '/v1/media_kits/:id', update],
  ['PUT', '/v1/media_kits/:id/publish', publish],
  ['PUT', '/v1/media_kits/:id/publish_under_embargo', publishUnderEmbargo],
  ['PUT', '/v1/media_kits/:id/unpublish', unpublish],
  ['PUT', '/v1/media_kits/:id/update_category', updateCategory],
  ['DELETE', '/v1/media_kits/:id', destroy],
];
