/**
 * The older, sparser wire shapes the live API is known to send (captured
 * 2015–16 answers and the official doc examples): the same press room, other
 * shapes. Each function takes an object as the current view makes it and
 * returns it as the legacy API would send it; objects nested in it (featured
 * images, a kit's media, the press room's contacts) are shaped by their own
 * view first. Which items get which variant
 * is decided by a hash of the item id, so answers are deterministic and
 * both variants of a case are present in one press room.
 */
import { hash32 } from '../model/random.ts';
import type { ImageAssetSpec, Tag, World } from '../model/types.ts';

type Json = Record<string, unknown>;
interface LegacyRendition {
  width: string | null;
  height: string | null;
  url: string | null;
}

/** Side of the small originals some legacy images have (uploads from before high-resolution originals). */
export const SMALL_UPLOAD_SIDE = 200;
/** What a small upload's `square` rendition declares: bigger than the original it is cut from. */
export const DECLARED_SQUARE_SIDE = 300;

const pick = (label: string, id: number, oneIn: number): boolean => hash32('legacy', label, id) % oneIn === 0;

/** Images whose legacy answer is a 200×200 original with a 300×300 `square` (the bytes are 200×200). */
export const isSmallUpload = (id: number): boolean => pick('small-upload', id, 6);

/** Media items whose legacy answer has no `file_size` and no `transparent` (every small upload among them). */
const isBareMedia = (id: number): boolean => isSmallUpload(id) || pick('bare-media', id, 2);

const SMALL_UPLOAD_RENDITIONS = ['original', 'large', 'medium', 'square'] as const;
const SMALL_UPLOAD_PATH = /^\/media\/legacy\/images\/(\d+)\/(original|large|medium|square)\.(jpg|png)$/;

function smallUploadSizes(id: number, ext: string): Record<string, LegacyRendition> {
  const side = String(SMALL_UPLOAD_SIDE);
  const square = String(DECLARED_SQUARE_SIDE);
  return Object.fromEntries(
    SMALL_UPLOAD_RENDITIONS.map((name) => [
      name,
      {
        width: name === 'square' ? square : side,
        height: name === 'square' ? square : side,
        url: `/media/legacy/images/${id}/${name}.${ext}`,
      },
    ]),
  );
}

/**
 * The bytes behind a small upload's legacy URL: the image's own picture drawn
 * 200×200. The `square` spec asks for 300×300 from that original; the renderer
 * never upscales, so it serves 200×200, as the live service did.
 */
export function legacyAsset(pathname: string, world: World): ImageAssetSpec | undefined {
  const match = SMALL_UPLOAD_PATH.exec(pathname);
  if (!match) return undefined;
  const [, idText, name, ext] = match as unknown as [string, string, string, string];
  const id = Number(idText);
  const base = world.assets.get(`/media/images/${id}/original.${ext}`);
  if (!isSmallUpload(id) || base?.kind !== 'image') return undefined;
  const side = name === 'square' ? DECLARED_SQUARE_SIDE : SMALL_UPLOAD_SIDE;
  return {
    ...base,
    originalWidth: SMALL_UPLOAD_SIDE,
    originalHeight: SMALL_UPLOAD_SIDE,
    width: side,
    height: side,
    fit: name === 'square' ? 'cover' : 'inside',
  };
}

/** Media items: some without `file_size`/`transparent`; some images a small upload with an oversized `square`. */
export function media(view: Json): Json {
  const id = view.id as number;
  const out: Json = { ...view };
  if (isBareMedia(id)) {
    delete out.file_size;
    delete out.transparent;
  }
  const original = (view.sizes as Record<string, LegacyRendition> | undefined)?.original;
  if (view.type === 'image' && isSmallUpload(id) && original?.url) {
    out.sizes = smallUploadSizes(id, original.url.endsWith('.png') ? 'png' : 'jpg');
  }
  return out;
}

/** A rendition whose size the old API did not know. */
const unmeasured = (rendition: LegacyRendition | undefined): LegacyRendition => ({
  width: null,
  height: null,
  url: rendition?.url ?? null,
});

/** Clippings: screenshot original without dimensions, `alexa: null`; some undated, some with a numeric `source`. */
export function clipping(view: Json): Json {
  const id = view.id as number;
  const sizes = view.sizes as Record<string, LegacyRendition>;
  return {
    ...view,
    release_date: pick('undated-clipping', id, 4) ? null : view.release_date,
    source: pick('numeric-source', id, 3) ? String(1000 + (hash32('outlet', String(view.source)) % 9000)) : view.source,
    alexa: null,
    sizes: { ...sizes, original: unmeasured(sizes.original) },
  };
}

/** Old editor block vocabularies: 2015 `header` + `textarea` (`data.body`), 2016 `header` + `text` (`data.text`, `data.style`). */
function legacyBlocks(json: string | null, vocabulary: 2015 | 2016): string | null {
  if (json === null) return null;
  const parsed = JSON.parse(json) as { blocks: Array<{ type: string; data: Json }> };
  const blocks = parsed.blocks.map(({ type, data }) => {
    if (type === 'header')
      return vocabulary === 2015 ? { type, data: { text: data.text } } : { type, data: { text: data.text, level: data.level } };
    if (type === 'textarea')
      return vocabulary === 2015 ? { type, data: { body: data.text } } : { type: 'text', data: { text: data.text, style: 'paragraph' } };
    return { type, data };
  });
  return JSON.stringify({ blocks });
}

/** Releases: some `type: "story"`, `""` for missing text, no `full_url`/`updated_at`/`reading_time`/`freeform_two`, old block vocabularies. */
export function release(view: Json): Json {
  const id = view.id as number;
  const vocabulary = pick('editor-2015', id, 2) ? 2015 : 2016;
  const { full_url: _full, updated_at: _updated, reading_time: _reading, freeform_two: _freeform, ...rest } = view;
  return {
    ...rest,
    subtitle: view.subtitle ?? '',
    summary: view.summary ?? '',
    social_media_pitch: view.social_media_pitch ?? '',
    type: pick('story', id, 3) ? 'story' : view.type,
    content_as_json: legacyBlocks(view.content_as_json as string | null, vocabulary),
    draft_content_as_json: legacyBlocks(view.draft_content_as_json as string | null, vocabulary),
  };
}

/** How other upstreams spell "true" and "false", one spelling per item. */
const TRUE_SPELLINGS = [true, 'TRUE', 'yes', 1, ' True ', 'on'] as const;
const FALSE_SPELLINGS = [false, 'no', 0, 'FALSE', 'off', 'f'] as const;

const spellingOf = <T>(spellings: readonly T[], label: string, id: number): T =>
  spellings[hash32('spelling', label, id) % spellings.length]!;

function spelledFlag(value: unknown, label: string, id: number): unknown {
  if (typeof value !== 'boolean') return value;
  return spellingOf(value ? TRUE_SPELLINGS : FALSE_SPELLINGS, label, id);
}

/** An ISO instant in another form the live API is known to send: basic form, an hour-only offset, epoch ms or s. */
function spelledInstant(value: unknown, id: number): unknown {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  const iso = new Date(ms).toISOString();
  const inTwoHoursEast = new Date(ms + 2 * 3_600_000).toISOString().replace(/\.\d+Z$/, '+02');
  const forms = [iso, iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z'), inTwoHoursEast, ms, String(Math.floor(ms / 1000))];
  return spellingOf(forms, 'instant', id);
}

/**
 * For a leaky key: the fields that say why an item is not public, spelled as
 * other and older upstreams spell them (`" Draft "`, `"yes"`, `1`, epoch
 * milliseconds, `20991231T000000Z`), one spelling per item, so a client that
 * reads only the exact current spellings publishes what it must not.
 */
export function spelledSignals(view: Json & { id: unknown }): Json {
  const id = Number(view.id);
  const out: Json = { ...view };
  if (typeof view.state === 'string')
    out.state = spellingOf([view.state, ` ${view.state.toUpperCase()} `, view.state.replace(/^./, (c) => c.toUpperCase())], 'state', id);
  for (const flag of ['private', 'is_locked', 'is_password_protected']) if (flag in view) out[flag] = spelledFlag(view[flag], flag, id);
  delete out.id;
  if ('publish_date' in view) out.publish_date = spelledInstant(view.publish_date, id);
  return out;
}

/**
 * Media kits from the old `/presskits` route: `id`, `title` and `media` (already in legacy shape),
 * nothing else — except, for a leaky key (`leakHidden`), the fields that say why a kit is not
 * public and the lock flags of a closed kit whose media it sends, as the current shape has them.
 */
export function mediaKit(view: Json): Json {
  const bare: Json = { id: view.id, title: view.title, media: view.media };
  if ('state' in view) Object.assign(bare, { state: view.state, private: view.private, publish_date: view.publish_date });
  const closed = view.is_locked === true || view.is_password_protected === true;
  if (closed && Array.isArray(view.media) && view.media.length > 0)
    Object.assign(bare, { is_locked: view.is_locked, is_password_protected: view.is_password_protected });
  return closed
    ? { ...bare, ...spelledSignals({ id: view.id, is_locked: bare.is_locked, is_password_protected: bare.is_password_protected }) }
    : bare;
}

/** "+31 20 794 1139" → "+31 (0)20 794 1139", as Dutch and German offices write it. */
const withTrunkZero = (phone: string): string => phone.replace(/^(\+\d{2}) /, '$1 (0)');
/** "+31 20 794 1139" → "0031 20 794 1139". */
const withExitCode = (phone: string): string => phone.replace(/^\+/, '00');

/**
 * Free-text contact blocks as editors typed them: every contact its own
 * format, e-mail and phones only in here.
 */
function contactInfo(jobTitle: string, phone: string, mobile: string | null, email: string, style: number): string {
  switch (style % 4) {
    case 0:
      return [jobTitle, phone, email].join('\n');
    case 1:
      return [jobTitle, `Tel: ${withTrunkZero(phone)}${mobile ? ` | Mobile: ${mobile}` : ''}`, `E-mail: ${email}`].join('\n');
    case 2:
      return [
        jobTitle,
        `Telefon: ${withTrunkZero(phone)}`,
        ...(mobile ? [`Mobil: ${mobile}`] : []),
        `E-Mail: ${email}`,
        'www.northwind.example/presse',
      ].join('\n');
    default:
      return `${jobTitle}\nQuestions about our products? Reach me at ${email} or call ${withExitCode(phone)}.`;
  }
}

const NO_PHOTO = { width: null, height: null, url: null };

/** PR contacts: no `email`, `phone`, `job_title`; an avatar original without dimensions, or no photo at all. */
export function contact(view: Json): Json {
  const { job_title, email, phone, ...rest } = view as Json & { job_title: string | null; email: string | null; phone: string | null };
  const mobile = /^M (.+)$/m.exec(String(view.contact_info))?.[1] ?? null;
  const avatar = view.avatar as Record<string, LegacyRendition> | null;
  return {
    ...rest,
    contact_info: contactInfo(job_title ?? '', phone ?? '', mobile, email ?? '', Number(view.position) - 1),
    avatar: avatar
      ? { ...avatar, original: unmeasured(avatar.original) }
      : {
          medium_square: { width: '100', height: '100', url: null },
          large_square: { width: '500', height: '500', url: null },
          original: NO_PHOTO,
        },
  };
}

/** Parent tag → child tags in the press room's tag tree (tags not named here are roots). */
const TAG_TREE: Readonly<Record<string, readonly string[]>> = {
  'product-launches': ['electric-bikes', 'cargo-bikes', 'software-apps', 'batteries', 'design'],
  sustainability: ['circular-economy', 'charging-infrastructure', 'research'],
  'people-leadership': ['investors', 'financial-results', 'awards'],
  'shared-mobility': ['subscriptions', 'fleet-services', 'last-mile-delivery'],
};

function tagTree(tags: readonly Tag[]): string {
  const bySlug = new Map(tags.map((t) => [t.slug, t]));
  const childSlugs = new Set(tags.flatMap((t) => TAG_TREE[t.slug] ?? []));
  const node = (t: Tag): Json => ({
    id: t.id,
    name: t.name,
    slug: t.slug,
    children: (TAG_TREE[t.slug] ?? []).flatMap((slug) => (bySlug.has(slug) ? [node(bySlug.get(slug)!)] : [])),
  });
  return JSON.stringify(tags.filter((t) => !childSlugs.has(t.slug)).map(node));
}

/** The press room: logo without dimensions, no `domain`/`boilerplate_html`, `tag_tree` as a JSON string. */
export function pressroom(view: Json, tags: readonly Tag[]): Json {
  const {
    domain: _domain,
    boilerplate_html: _boilerplate,
    logo,
    ...rest
  } = view as Json & {
    logo: { small_url: string; square_url: string; original_url: string };
  };
  return {
    ...rest,
    logo: { small_url: logo.small_url, square_url: logo.square_url, original_url: logo.original_url },
    tag_tree: tagTree(tags),
  };
}
