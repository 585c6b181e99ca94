import type { OperationTable } from './authz-cases';
import { ask, type Check } from './authz-expect';
import type { World } from './authz-fixture';
import { fresh, type Params } from './authz-fresh';

/**
 * The permissions operations of spaces and collections: whoever sees the
 * content lists its grants; changing them is `manage-permissions`. Writes
 * grant to a fresh member or team (so no caller's access changes under the
 * other cells), and removals address one without a grant (204).
 */
function permissionOperations(kind: 'Space' | 'Collection'): OperationTable {
  const on =
    (action: 'view' | 'manage-permissions') =>
    (w: World, p: Params): Check[] =>
      kind === 'Space' ? [ask.space(p.spaceId!, action)] : [ask.collection(p.collectionId!, action)];
  const manage = on('manage-permissions');
  return {
    [`listUserPermissionsIn${kind}`]: { checks: on('view') },
    [`listTeamPermissionsIn${kind}`]: { checks: on('view') },
    [`inviteTo${kind}`]: {
      params: fresh.member,
      body: (_w, p) => ({ role: 'read', users: [p.userId] }),
      checks: manage,
    },
    [`updateUserPermissionIn${kind}`]: { params: fresh.member, body: () => ({ role: 'read' }), checks: manage },
    [`updateTeamPermissionIn${kind}`]: { params: fresh.team, body: () => ({ role: 'read' }), checks: manage },
    [`removeUserFrom${kind}`]: { params: fresh.member, checks: manage },
    [`removeTeamFrom${kind}`]: { params: fresh.team, checks: manage },
  };
}

export const PERMISSION_OPERATIONS: OperationTable = {
  ...permissionOperations('Space'),
  ...permissionOperations('Collection'),
};
