/** Routes management requests; operations outside this product answer 501. */
import FindMyWay from 'find-my-way';
import { CAMPAIGN_ROUTES } from './campaigns.ts';
import { CATEGORY_ROUTES } from './categories.ts';
import { MEDIA_KIT_ROUTES } from './media-kits.ts';
import type { ManagementHandler } from './context.ts';

export type ManagementMatch =
  | { kind: 'handler'; handler: ManagementHandler; params: Record<string, string | undefined> }
  | { kind: 'outside'; message: string }
  | { kind: 'none' };

const router = FindMyWay({ ignoreTrailingSlash: true });
for (const [method, path, handler] of [...CATEGORY_ROUTES, ...MEDIA_KIT_ROUTES, ...CAMPAIGN_ROUTES]) {
  router.on(method as 'GET', path, () => undefined, { handler });
}

const CRM = /^\/v1\/(agents|bulkjobs|contact_imports|contacts|fields|notices|organisations|removed_contacts|segments)(\/|$)/;
const COLLABORATION = /^\/v1\/(campaigns\/[^/]+\/(poll|approvals|distributions|proposals|users)|[^/]+\/[^/]+\/(activities|comments))(\/|$)/;

export function matchManagement(method: string, path: string): ManagementMatch {
  const found = router.find(method as 'GET', path);
  if (found) return { kind: 'handler', handler: (found.store as { handler: ManagementHandler }).handler, params: found.params };
  if (CRM.test(path)) {
    return {
      kind: 'outside',
      message: 'CRM operations are outside this product: a public static site never holds a key that writes to a CRM',
    };
  }
  if (COLLABORATION.test(path)) {
    return {
      kind: 'outside',
      message: 'campaign collaboration (approvals, distributions, comments, activities, polling) is outside this product',
    };
  }
  return { kind: 'none' };
}
