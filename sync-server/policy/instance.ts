import { ALLOW, forbidden, type Decision } from './decision';

/**
 * Instance-wide actions: what only the instance admin (the operator who runs
 * this server) may do, whatever their organizations. Pure, like every rule.
 */
const INSTANCE_RULES = {
  /** Vouching for a domain without DNS proof hands that domain's people to an organization. */
  'approve-domains': 'approve a domain without its DNS record',
} satisfies Record<string, string>;

export type InstanceAction = keyof typeof INSTANCE_RULES;

/** May the caller do `action` on this instance? Only the instance admin may. */
export function decideInstance(caller: { instanceAdmin: boolean }, action: InstanceAction): Decision {
  return caller.instanceAdmin ? ALLOW : forbidden(`Only the instance admin may ${INSTANCE_RULES[action]}`);
}
