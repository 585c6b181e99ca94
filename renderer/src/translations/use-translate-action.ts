import { useEffect } from 'preact/hooks';
import type { OrgDetails } from '../org/org-api';
import { useApp } from '../screens/context';
import { useResource } from '../ui/kit/hooks';
import { translationsOf } from './translation-model';
import { translationStores } from './translation-stores';
import { openTranslationsDialog } from './translations-dialog';

/** The bits of GitBook's Space the action needs (the app's Space type keeps fewer fields). */
export interface SpaceForTranslation {
  id: string;
  title?: string;
  organization?: string;
  language?: string;
  permissions?: { view?: boolean };
  /** Folio: set on a translation's result space (it is not translated again: its source is). */
  translatedFrom?: { space: string };
}

/**
 * Whether the caller may manage the organization's translations and glossary (add a language, run,
 * change, delete): the server's `manage-translations`, the "create" role, as creating any space is.
 * The organization's `permissions` say it as `createContent` (the same role); a server that names
 * it `manageTranslations` is read first.
 */
export function mayManageTranslations(org: OrgDetails | undefined): boolean {
  const permissions = org?.permissions as (OrgDetails['permissions'] & { manageTranslations?: boolean }) | undefined;
  return (permissions?.manageTranslations ?? permissions?.createContent) === true;
}

/**
 * "Translate…" for the open space, or undefined when there is nothing for the caller there. Those
 * who may manage translations always have it (but not on a translated space: its source is what is
 * translated); others (readers may see translations, not change them) have it only when the space
 * has translations. One list of the organization's translations answers, shared with the dialog
 * through the translation store; the organization's permissions come from the account's org store.
 */
export function useTranslateAction(spaceId: string): (() => void) | undefined {
  const app = useApp();
  const { state } = useResource(app.stores.space, spaceId);
  const space = 'data' in state ? (state.data as SpaceForTranslation | undefined) : undefined;
  const orgId = space?.organization;
  const list = translationStores(app.session.api).list;
  const orgs = app.stores.org;

  useEffect(() => {
    if (!orgId) return;
    const releases = [list.retain(orgId), orgs.retain(orgId)];
    list.ensure(orgId);
    orgs.ensure(orgId);
    return () => releases.forEach((release) => release());
  }, [list, orgs, orgId]);

  // Read in render, so the menu follows the stores (a translation deleted in the dialog hides the item).
  const orgState = orgId ? orgs.state(orgId).value : undefined;
  const listState = orgId ? list.state(orgId).value : undefined;
  if (!spaceId || !space || !orgId) return undefined;
  const org = orgState && 'data' in orgState ? orgState.data : undefined;
  const translations = listState && 'data' in listState ? listState.data : undefined;
  // A caller who may not list them (a guest of one space) has nothing to see here.
  if (!translations) return undefined;
  const manage = mayManageTranslations(org) && !space.translatedFrom;
  if (!manage && translationsOf(translations, spaceId).length === 0) return undefined;
  return () => void openTranslationsDialog(app, { space: { ...space, organization: orgId }, manage });
}
