/**
 * A child listed flat next to its hidden parent (`parent_id`) is hidden with
 * it, however deep: categories in a list, in a snapshot and in a build alike.
 */

/** One list item's place in a flat tree: its id and its parent's, as strings (undefined for none). */
export interface FlatNode {
  id: string | undefined;
  parent: string | undefined;
}

/** `hidden` grown by every node whose chain of parents reaches one of them (cycles end it). */
export function hiddenWithDescendants(nodes: readonly FlatNode[], hidden: ReadonlySet<string>): Set<string> {
  const all = new Set(hidden);
  for (let grew = true; grew;) {
    grew = false;
    for (const { id, parent } of nodes) {
      if (id === undefined || parent === undefined || all.has(id) || !all.has(parent)) continue;
      all.add(id);
      grew = true;
    }
  }
  return all;
}

/** The flat-tree place of a raw item: `id` and `parent_id` as strings, absent when missing or null. */
export function flatNodeOf(item: Record<string, unknown>): FlatNode {
  const text = (value: unknown) => (value === undefined || value === null ? undefined : String(value));
  return { id: text(item.id), parent: text(item.parent_id) };
}
