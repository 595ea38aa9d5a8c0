/**
 * The emulator's in-memory model of one press room.
 *
 * Records hold the public API fields exactly as the Read API sends them, plus
 * internal fields whose names start with `_`. The serializer drops every `_`
 * field, so visibility rules, relations and embargo dates never leak into a
 * response. Relations are stored as id lists and resolved at response time, so
 * a management change shows in every read endpoint at once.
 */

/** ISO-8601 UTC with milliseconds, as the live API sends: `2015-09-02T13:55:34.000Z`. */
export type IsoDate = string;

/** Publication state of content. Only `published` can ever be public. */
export type PublicationState = 'published' | 'draft' | 'unpublished';

/** Internal visibility fields shared by every record the public may or may not see. */
export interface Visibility {
  _state: PublicationState;
  /** Private items never appear in any public response. */
  _private: boolean;
  /** Hidden until the emulator clock reaches this instant (embargo); null = no embargo. */
  _visibleFrom: IsoDate | null;
}

/**
 * One rendition of a media item. Width and height are strings, as observed live.
 * In the model every emulator-served URL is a path starting with `/media/`; the
 * serializer makes it absolute with the emulator's origin, so the model does not
 * depend on the port it happens to listen on.
 */
export interface Rendition {
  width: string;
  height: string;
  url: string;
}

export type RenditionName = 'original' | 'large' | 'medium' | 'square' | 'small' | 'thumbnail';
export type Sizes = Partial<Record<RenditionName, Rendition>>;

export type MediaType = 'image' | 'movie' | 'document' | 'sound' | 'video';

/** Media library item: images, movies, documents, sounds, videos. */
export interface MediaItem extends Visibility {
  id: number;
  pressroom_id: number;
  title: string;
  description: string | null;
  type: MediaType;
  /** Short format name: `jpeg`, `png`, `pdf`, `mp4`, `wav`, `youtube`. */
  content_type: string;
  /** `/images/<id>`, `/movies/<id>`, `/documents/<id>`, `/sounds/<id>`, `/videos/<id>` */
  permalink: string;
  transparent: boolean;
  /** Bytes of the original file. */
  file_size: number;
  sizes: Sizes;
  created_at: IsoDate;
  updated_at: IsoDate;
  /** Documents, movies, sounds: the original file. */
  url?: string;
  /** Movies. */
  mp4_url?: string;
  webm_url?: string;
  thumbnail_url?: string;
  /** Documents. */
  has_thumb?: boolean;
  /** Videos (embedded from a video platform). */
  provider?: string;
  embed_url?: string;
  /** Sounds and movies: seconds. */
  duration?: number;
  _tagIds: number[];
}

export interface Tag {
  id: number;
  pressroom_id: number;
  slug: string;
  name: string;
  description: string | null;
  layout: string;
  image: Sizes | null;
  hero_image: Sizes | null;
}

export interface PressRelease extends Visibility {
  id: number;
  pressroom_id: number;
  title: string;
  subtitle: string | null;
  release_date: IsoDate | null;
  release_location: string | null;
  language: string;
  social_media_pitch: string | null;
  summary: string | null;
  body_html: string;
  /** `/<id>-<slug>` */
  permalink: string;
  full_url: string;
  short_link: string;
  type: 'press_release';
  /** Always `published` in a response; the real state is `_state`. */
  state: 'published';
  pdf: string | null;
  show_in_timeline: boolean;
  show_boilerplate_text: boolean;
  content_as_json: string | null;
  /** Unpublished edits: the emulator fills it so clients can prove they never render it. */
  draft_content_as_json: string | null;
  freeform_two: boolean;
  reading_time: number | string;
  updated_at: IsoDate;
  _tagIds: number[];
  _featuredImageIds: number[];
}

export interface Clipping extends Visibility {
  id: number;
  pressroom_id: number;
  press_release_id: number | null;
  title: string;
  description: string | null;
  /** The outlet; sometimes sent as a number-like string. */
  source: string;
  url: string;
  release_date: IsoDate;
  published_at: IsoDate;
  language: string;
  state: 'published';
  private: false;
  show_iframe: boolean;
  /** `/clippings/<id>-<slug>` */
  permalink: string;
  type: 'clipping';
  shares: { facebook: number; linkedin: number; twitter: number };
  /** Screenshot of the article page. */
  sizes: Sizes;
  _tagIds: number[];
}

export interface PressEvent extends Visibility {
  id: number;
  pressroom_id: number;
  title: string;
  description: string | null;
  starts_at: IsoDate;
  ends_at: IsoDate | null;
  timezone: string;
  location: string | null;
  online: boolean;
  stream_url: string | null;
  /** `/events/<id>-<slug>` */
  permalink: string;
  language: string;
  type: 'event';
  published_at: IsoDate;
  _tagIds: number[];
  _featuredImageIds: number[];
}

export interface LiveEvent extends Visibility {
  id: number;
  pressroom_id: number;
  event_id: number | null;
  title: string;
  description: string | null;
  starts_at: IsoDate;
  ends_at: IsoDate | null;
  stream_url: string | null;
  /** `/live/<id>-<slug>` */
  permalink: string;
  language: string;
  type: 'live_event';
  /** Timestamped posts of the live blog, oldest first. */
  updates: Array<{ id: number; posted_at: IsoDate; body_html: string }>;
}

export interface Page extends Visibility {
  id: number;
  pressroom_id: number;
  title: string;
  slug: string;
  /** `/pages/<slug>` */
  permalink: string;
  body_html: string;
  position: number;
  show_in_menu: boolean;
  language: string;
  updated_at: IsoDate;
  _tagIds: number[];
}

export interface PrContact {
  id: number;
  pressroom_id: number;
  name: string;
  job_title: string | null;
  email: string | null;
  phone: string | null;
  /** Free text with line breaks, as observed live. */
  contact_info: string;
  urls: { twitter: string | null; skype: string | null; linkedin: string | null; avatar: string | null };
  usernames: { twitter: string | null; skype: string | null };
  avatar: { medium_square: Rendition; large_square: Rendition; original: Rendition } | null;
  position: number;
}

export interface MediaKit extends Visibility {
  id: number;
  pressroom_id: number;
  title: string;
  description_title: string | null;
  description: string | null;
  category_id: number | null;
  position: number;
  is_locked: boolean;
  is_password_protected: boolean;
  /** `/media_kits/<id>-<slug>` */
  permalink: string;
  created_at: IsoDate;
  updated_at: IsoDate;
  /** Ids into the media library (images, movies, documents, sounds, videos), in order. */
  _mediaIds: number[];
  _tagIds: number[];
}

export interface MediaKitCategory extends Visibility {
  id: number;
  pressroom_id: number;
  name: string;
  description: string | null;
  parent_id: number | null;
  position: number;
  image_id: number | null;
  created_by: number;
}

export interface Pressroom {
  id: number;
  slug: string;
  /** The newsroom's base URL on the hosted service. */
  permalink: string;
  /** Domain that addresses it in paths, e.g. `acme.pr.example`. */
  domain: string;
  name: string;
  /** HTML "about" text. */
  description: string;
  boilerplate_html: string;
  language: string;
  languages: string[];
  /** Rails-style zone name, e.g. `Amsterdam`. */
  timezone: string;
  contact_info: string;
  urls: Record<string, string | null>;
  logo: { small_url: string; square_url: string; original_url: string; width: number; height: number };
  design: { link_color: string; background_color: string; header_color: string; layout: string };
  noindex: boolean;
  nofollow: boolean;
  subscribe_enabled: boolean;
  login_enabled: boolean;
  show_presskit: boolean;
  tag_tree_enabled: boolean;
  parent_pressroom_id: number | null;
  child_pressroom_ids: number[];
  created_at: IsoDate;
}

/**
 * How to produce the bytes behind one media URL. The world registers one spec
 * per URL path; the media server renders it on first request and caches it.
 */
export type AssetSpec = ImageAssetSpec | PdfAssetSpec | AudioAssetSpec | VideoAssetSpec;

export interface ImageAssetSpec {
  kind: 'image';
  /** Drives the deterministic picture; two specs with the same seed show the same picture. */
  seed: number;
  /** Text drawn on the picture (title), so screenshots show which item it is. */
  label: string;
  format: 'jpeg' | 'png';
  /** PNG with an alpha channel. */
  transparent: boolean;
  /** Size of the original picture every rendition is derived from. */
  originalWidth: number;
  originalHeight: number;
  /** This rendition's exact output size. */
  width: number;
  height: number;
  /** `cover` = centre crop (square renditions); `inside` = aspect kept. */
  fit: 'cover' | 'inside';
  /** `logo`: a wordmark on a white card (the press room's logo), readable at header size. Unset: a picture. */
  design?: 'logo';
}

export interface PdfAssetSpec {
  kind: 'pdf';
  seed: number;
  title: string;
  /** Paragraphs of text on the pages. */
  paragraphs: string[];
}

export interface AudioAssetSpec {
  kind: 'audio';
  seed: number;
  seconds: number;
}

export interface VideoAssetSpec {
  kind: 'video';
  format: 'mp4' | 'webm';
}

/** Everything the emulator serves for one press room. */
export interface World {
  seed: number;
  scale: number;
  pressroom: Pressroom;
  pressReleases: PressRelease[];
  clippings: Clipping[];
  events: PressEvent[];
  liveEvents: LiveEvent[];
  pages: Page[];
  prContacts: PrContact[];
  mediaKits: MediaKit[];
  mediaKitCategories: MediaKitCategory[];
  tags: Tag[];
  images: MediaItem[];
  movies: MediaItem[];
  videos: MediaItem[];
  sounds: MediaItem[];
  documents: MediaItem[];
  /** URL path (starting with `/media/`) → how to render its bytes. */
  assets: Map<string, AssetSpec>;
}

export interface GenerateOptions {
  seed: number;
  /** Number of press releases; the rest scales with it. Demo default: 60. */
  scale: number;
  /** Images of the library, instead of the number grown from `scale`. */
  images?: number;
  /** Published media kits (besides the four special ones), instead of the number grown from `scale`. */
  kits?: number;
  /** The instant the demo data is arranged around (past, upcoming, embargoed). */
  now: Date;
}
