import { useState } from 'preact/hooks';
import { ApiError, describeError } from '../api/client';
import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { joinWithInvite } from '../stores/org-writes';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';

/**
 * Accepting an invite (`urls.app` of an invite: `/join/<org>/<invite>`): the signed-in person
 * confirms, joins (joinOrganizationWithInvite), and lands on the organization's home. Someone
 * already in the organization goes straight there.
 */
export default function JoinScreen({ route }: { route: Route }) {
  const { orgId, inviteId } = route as Route & { view: 'join' };
  const { session, stores, nav } = useApp();
  const [joining, setJoining] = useState(false);
  const [message, setMessage] = useState('');
  const home = () => nav.go({ view: 'org', orgId, tab: 'home' });
  const accept = async () => {
    setJoining(true);
    setMessage('Joining…');
    try {
      await joinWithInvite(stores, orgId, inviteId);
      home();
    } catch (err) {
      // Already a member (or the link was for a space one can already open): the organization is still the place to go.
      stores.org.invalidate(orgId);
      const member = await stores.org.get(orgId).then(
        (o) => o.permissions.view,
        () => false,
      );
      if (member) return home();
      setJoining(false);
      setMessage(
        err instanceof ApiError && err.status === 404
          ? 'This invite does not exist any more. Ask for a new link.'
          : `Could not join: ${describeError(err)}`,
      );
    }
  };
  return (
    <div class="org-centered">
      <div class="org-form card" data-testid="join">
        <h1 class="org-heading" data-testid="join-title">
          Join an organization
        </h1>
        <p>
          You were invited to an organization on {session.account.serverUrl}. Accept to join it as {session.displayName}
          .
        </p>
        <div class="org-row">
          <button
            type="button"
            class="primary"
            data-testid="join-accept"
            disabled={joining}
            onClick={() => void accept()}
          >
            <Icon name="user-plus" />
            Accept the invite
          </button>
          <Link to={{ view: 'picker' }} class="org-top-link" data-testid="join-decline">
            Not now
          </Link>
        </div>
        <p class="form-message" role="alert" data-testid="join-message">
          {message}
        </p>
      </div>
    </div>
  );
}
