import { decideOrganization } from './organization';
import { ALLOW, deny, forbidden, type Decision } from './decision';
import type { Subject } from './subject';

/** A team as policy sees it: its organization, and whether the caller owns it. */
export interface TeamResource {
  type: 'team';
  organizationId: string;
  ownedByCaller: boolean;
}

export type TeamAction = 'view' | 'admin';

/** Full members see teams; organization admins and a team's owners administer it. */
export function decideTeam(subject: Subject, action: TeamAction, team: TeamResource): Decision {
  if (subject.role === undefined) return deny({ reason: 'not-found', what: 'Organization' });
  if (team.ownedByCaller || subject.role === 'admin') return ALLOW;
  if (action === 'view')
    return decideOrganization(subject, 'list-teams', { type: 'organization', organizationId: team.organizationId });
  return forbidden('Only organization admins and owners of this team can change it');
}

/** The `permissions` object of a Team. */
export function teamPermissions(subject: Subject, team: TeamResource) {
  return { admin: decideTeam(subject, 'admin', team).allowed, view: decideTeam(subject, 'view', team).allowed };
}
