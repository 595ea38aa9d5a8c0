/** Media kit category management: create, update, publish, embargo, unpublish, positions, delete. */
import { ManagementError, dateField, hashParam, integerField, positionsOf, stringField } from './body.ts';
import { ok, pendingEmbargo, type ManagementHandler, type ManagementRequest } from './context.ts';
import { PUBLIC_CURRENT, categoryTree, publicFields } from '../http/views.ts';
import type { MediaKitCategory } from '../model/types.ts';

const key = (c: MediaKitCategory) => `media_kit_category:${c.id}`;

export function adminCategoryView(c: MediaKitCategory) {
  return { ...publicFields(c), state: c._state, publish_date: c._visibleFrom, embargo_date: pendingEmbargo.get(c) ?? null };
}

function find(req: ManagementRequest): MediaKitCategory {
  const category = req.store.categoryById(Number(req.params.id));
  if (!category) throw new ManagementError(404, `Missing: no media kit category ${req.params.id}`);
  return category;
}

function descendants(req: ManagementRequest, id: number): MediaKitCategory[] {
  const children = req.store.world.mediaKitCategories.filter((c) => c.parent_id === id);
  return children.flatMap((c) => [c, ...descendants(req, c.id)]);
}

/** Keys of the category and everything whose public view depends on it. */
function affected(req: ManagementRequest, category: MediaKitCategory): string[] {
  const ids = new Set([category.id, ...descendants(req, category.id).map((c) => c.id)]);
  return [
    ...[...ids].map((id) => `media_kit_category:${id}`),
    ...req.store.world.mediaKits.filter((k) => k.category_id !== null && ids.has(k.category_id)).map((k) => `media_kit:${k.id}`),
  ];
}

function parentOf(req: ManagementRequest, ancestry: string | null | undefined): number | null | undefined {
  if (ancestry === undefined) return undefined;
  if (ancestry === null || ancestry === '') return null;
  const id = Number(ancestry.split('/').pop());
  if (!req.store.categoryById(id)) throw new ManagementError(422, `'media_kit_category[ancestry]' names no category: '${ancestry}'`);
  return id;
}

const list: ManagementHandler = (req) => ok(req.store.world.mediaKitCategories.map(adminCategoryView));

const tree: ManagementHandler = (req) =>
  ok(categoryTree(req.store.world.mediaKitCategories, { store: req.store, now: req.now, includes: new Set(), ...PUBLIC_CURRENT }));

const show: ManagementHandler = (req) => ok(adminCategoryView(find(req)));

const create: ManagementHandler = (req) => {
  const hash = hashParam(req.body, 'media_kit_category');
  const name = stringField(hash, 'media_kit_category', 'name', { required: true })!;
  const createdBy = integerField(hash, 'media_kit_category', 'created_by', { required: true })!;
  const parent = parentOf(req, stringField(hash, 'media_kit_category', 'ancestry')) ?? null;
  const description = stringField(hash, 'media_kit_category', 'description') ?? null;
  const imageId = integerField(hash, 'media_kit_category', 'image_id') ?? null;
  const siblings = req.store.world.mediaKitCategories.filter((c) => c.parent_id === parent);
  const category: MediaKitCategory = {
    id: req.store.nextId('mediaKitCategories'),
    pressroom_id: req.store.world.pressroom.id,
    name,
    description,
    parent_id: parent,
    position: siblings.reduce((max, c) => Math.max(max, c.position), 0) + 1,
    image_id: imageId,
    created_by: createdBy,
    _state: 'draft',
    _private: false,
    _visibleFrom: null,
  };
  req.store.world.mediaKitCategories.push(category);
  return ok(adminCategoryView(category), [key(category)], 201);
};

const update: ManagementHandler = (req) => {
  const category = find(req);
  const hash = hashParam(req.body, 'media_kit_category');
  const group = 'media_kit_category';
  // Every field is read (and refused with 422) before anything changes.
  const name = stringField(hash, group, 'name');
  if (name === null || name === '') throw new ManagementError(422, `'${group}[name]' must be a non-empty string`);
  const description = stringField(hash, group, 'description');
  const imageId = integerField(hash, group, 'image_id');
  const position = integerField(hash, group, 'position');
  const parent = parentOf(req, stringField(hash, group, 'ancestry'));
  if (parent !== undefined && parent !== null && (parent === category.id || descendants(req, category.id).some((c) => c.id === parent))) {
    throw new ManagementError(422, `'${group}[ancestry]' would make category ${category.id} its own ancestor`);
  }
  const publishDate = dateField(hash, group, 'publish_date');
  const embargoDate = dateField(hash, group, 'embargo_date');

  if (name !== undefined) category.name = name;
  if (description !== undefined) category.description = description;
  if (imageId !== undefined) category.image_id = imageId;
  if (position !== undefined && position !== null) category.position = position;
  if (parent !== undefined) category.parent_id = parent;
  if (publishDate !== undefined) category._visibleFrom = publishDate;
  if (embargoDate) pendingEmbargo.set(category, embargoDate);
  else if (embargoDate === null) pendingEmbargo.delete(category);
  return ok(adminCategoryView(category), affected(req, category));
};

const publish: ManagementHandler = (req) => {
  const category = find(req);
  category._state = 'published';
  category._visibleFrom = null;
  return ok(adminCategoryView(category), affected(req, category));
};

const publishUnderEmbargo: ManagementHandler = (req) => {
  const category = find(req);
  const embargo = dateField(req.body, 'body', 'embargo_date') ?? pendingEmbargo.get(category);
  if (!embargo) throw new ManagementError(422, `media kit category ${category.id} has no embargo_date: set it with update first`);
  category._state = 'published';
  category._visibleFrom = embargo;
  return ok(adminCategoryView(category), affected(req, category));
};

const unpublish: ManagementHandler = (req) => {
  const category = find(req);
  category._state = 'unpublished';
  return ok(adminCategoryView(category), affected(req, category));
};

const updatePositions: ManagementHandler = (req) => {
  const positions = positionsOf(req.body, 'media_kit_category_positions', 'media kit category', (id) => req.store.categoryById(id));
  for (const { record, position } of positions) record.position = position;
  return ok(
    req.store.world.mediaKitCategories.map(adminCategoryView),
    positions.map(({ record }) => key(record)),
  );
};

const destroy: ManagementHandler = (req) => {
  const category = find(req);
  const changed = affected(req, category);
  const destroyChildren = ['true', '1'].includes(req.query.get('destroy_children') ?? String(req.body.destroy_children ?? ''));
  const removed = new Set([category.id, ...(destroyChildren ? descendants(req, category.id).map((c) => c.id) : [])]);
  const world = req.store.world;
  for (const child of world.mediaKitCategories) {
    if (child.parent_id === category.id && !removed.has(child.id)) child.parent_id = category.parent_id;
  }
  world.mediaKitCategories = world.mediaKitCategories.filter((c) => !removed.has(c.id));
  for (const kit of world.mediaKits) if (kit.category_id !== null && removed.has(kit.category_id)) kit.category_id = null;
  return ok({ id: category.id, deleted: [...removed] }, changed);
};

export const CATEGORY_ROUTES: ReadonlyArray<readonly [string, string, ManagementHandler]> = [
  ['GET', '/v1/media_kit_categories', list],
  ['GET', '/v1/media_kit_categories/tree', tree],
  ['GET', '/v1/media_kit_categories/:id', show],
  ['POST', '/v1/media_kit_categories', create],
  ['PUT', '/v1/media_kit_categories/update_positions', updatePositions],
  ['PUT', '/v1/media_kit_categories/:id', update],
  ['PUT', '/v1/media_kit_categories/:id/publish', publish],
  ['PUT', '/v1/media_kit_categories/:id/publish_under_embargo', publishUnderEmbargo],
  ['PUT', '/v1/media_kit_categories/:id/unpublish', unpublish],
  ['DELETE', '/v1/media_kit_categories/:id', destroy],
];
