import type { AppContext } from '../../context';
import { JobError } from '../../jobs/runner';
import type { Principal } from '../../identity/principal';

/** The user who asked for a Git job, as the services it calls take a caller (their rules apply to them). */
export async function principalOf(ctx: AppContext, userId: string): Promise<Principal> {
  const [user] = await ctx.db.query<{ display_name: string; email: string | null; instance_admin: boolean }>(
    'SELECT display_name, email, instance_admin FROM users WHERE id = $1',
    [userId],
  );
  if (!user) throw new JobError('NOT_FOUND', 'The user who asked for this Git operation no longer exists');
  return {
    userId,
    displayName: user.display_name,
    email: user.email,
    photoUrl: null,
    instanceAdmin: user.instance_admin,
  };
}
