/**
 * Media kits grouped by the category tree, in its positions: each category in
 * tree order (roots by position, then each category's `child_ids` as the tree
 * endpoint lists them), with the kits filed directly under it by position.
 * Categories without kits anywhere below them are left out; kits without a
 * (public) category come last, in a group of their own.
 */

interface Category {
  id: number;
  position: number;
  depth: number;
  child_ids: number[];
  ancestor_ids: number[];
}
interface Kit {
  id: number;
  position: number;
  category_id: number | null;
}

export interface KitGroup<C, K> {
  /** null: kits without a public category. */
  category: C | null;
  /** 0 for roots (and the uncategorised group). */
  depth: number;
  /** Kits filed directly under this category, by position. */
  kits: K[];
}

const byPosition = (a: { position: number; id: number }, b: { position: number; id: number }) => a.position - b.position || a.id - b.id;

export function groupKitsByCategory<C extends Category, K extends Kit>(
  categories: readonly C[],
  kits: readonly K[],
): Array<KitGroup<C, K>> {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const kitsIn = new Map<number, K[]>();
  for (const kit of [...kits].sort(byPosition)) {
    if (kit.category_id === null || !byId.has(kit.category_id)) continue;
    const list = kitsIn.get(kit.category_id);
    if (list) list.push(kit);
    else kitsIn.set(kit.category_id, [kit]);
  }

  const groups: Array<KitGroup<C, K>> = [];
  const placed = new Set<number>();
  const visit = (category: C, depth: number): number => {
    if (placed.has(category.id)) return 0; // a cycle or a category listed twice
    placed.add(category.id);
    const group: KitGroup<C, K> = { category, depth, kits: kitsIn.get(category.id) ?? [] };
    groups.push(group);
    let count = group.kits.length;
    for (const childId of category.child_ids) {
      const child = byId.get(childId);
      if (child) count += visit(child, depth + 1);
    }
    if (count === 0) groups.splice(groups.indexOf(group), 1);
    return count;
  };
  const roots = categories.filter((c) => c.ancestor_ids.length === 0 || !c.ancestor_ids.some((id) => byId.has(id))).sort(byPosition);
  for (const root of roots) visit(root, 0);

  const filed = new Set(groups.flatMap((g) => g.kits.map((k) => k.id)));
  const rest = [...kits].sort(byPosition).filter((k) => !filed.has(k.id));
  if (rest.length > 0) groups.push({ category: null, depth: 0, kits: rest });
  return groups;
}
