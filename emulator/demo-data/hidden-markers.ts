/**
 * Every hidden item of the demo press room carries one of these strings in
 * its title, a media name or its content: EMBARGOED, PRIVATE and DRAFT and
 * UNPUBLISHED release/clipping/event/page/kit/category titles, the
 * LOCKED-KIT / PROTECTED-KIT media of closed kits, and "DRAFT EDIT" in every
 * `draft_content_as_json`. None of them occurs in anything public, so a test
 * can grep a built site (or any output) for them: a hit is a leak.
 */
const HIDDEN_MARKERS = ['EMBARGOED', 'PRIVATE:', 'DRAFT:', 'UNPUBLISHED', 'LOCKED-KIT', 'PROTECTED-KIT', 'DRAFT EDIT'] as const;

/** The strings that must never appear in a site built from the demo press room, whatever the API sends. */
export function hiddenMarkers(): string[] {
  return [...HIDDEN_MARKERS];
}
