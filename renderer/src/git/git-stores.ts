import type { ApiClient } from '../api/client';
import { ResourceStore } from '../stores/resource';
import { getGitInfo, getGitSettings, type GitSettings, type GitSyncInfo } from './git-api';

/**
 * The Git sync of spaces, by space id, for the signed-in account: its state (null when the space has
 * none) and its automatic sync settings ('unavailable' on a server without them). One pair of stores
 * per API client, so the space header's "is there a sync?" and the panel read the same answer, and a
 * client of another account never sees it.
 */
export interface GitStores {
  info: ResourceStore<string, GitSyncInfo | null>;
  settings: ResourceStore<string, GitSettings | 'unavailable'>;
}

const byClient = new WeakMap<ApiClient, GitStores>();

export function gitStores(api: ApiClient): GitStores {
  let stores = byClient.get(api);
  if (!stores) {
    stores = {
      info: new ResourceStore((spaceId) => getGitInfo(api, spaceId)),
      settings: new ResourceStore((spaceId) => getGitSettings(api, spaceId)),
    };
    byClient.set(api, stores);
  }
  return stores;
}
