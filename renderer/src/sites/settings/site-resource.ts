import { useApp } from '../../screens/context';
import { useResource } from '../../ui/kit/hooks';

/** The site's customization from the store (loaded on mount, kept while other screens show it). */
export function useSiteCustomization(orgId: string, siteId: string) {
  const { stores } = useApp();
  const key: [string, string] = [orgId, siteId];
  return useResource(stores.siteCustomization, key);
}
