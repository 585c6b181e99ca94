/**
 * What a policy question answers. A refusal carries why, so that each
 * transport can say it its own way from the same decision: REST turns it into
 * an HTTP error (404, 403, 400), the sync socket into a close code (4404,
 * 4403, 4410, 4423).
 */
export type Denial =
  /** The caller may not even know the resource exists. */
  | { reason: 'not-found'; what: string }
  /** The caller sees the resource but lacks the role for this. */
  | { reason: 'forbidden'; message: string }
  /** The resource (or its space) is in the trash: only restore and delete apply. */
  | { reason: 'deleted'; message: string }
  /** A locked space refuses content changes, whatever the role. */
  | { reason: 'locked'; message: string }
  /** A merged or archived change request no longer changes. */
  | { reason: 'closed'; message: string }
  /** Discussions are written by the server only (comments carry authors and permissions). */
  | { reason: 'server-only'; message: string };

export type Decision = { allowed: true } | ({ allowed: false } & Denial);

export const ALLOW: Decision = { allowed: true };

export const deny = (denial: Denial): Decision => ({ allowed: false, ...denial });

export const forbidden = (message: string): Decision => deny({ reason: 'forbidden', message });

/** The first refusal of a list of checks, or ALLOW: checks run in the order given, cheapest reason first. */
export function firstDenial(...checks: (Decision | false | undefined)[]): Decision {
  for (const c of checks) if (c && !c.allowed) return c;
  return ALLOW;
}
