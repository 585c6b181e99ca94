import type { Route } from '../routes';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import type { Integration, InstallationStatus } from './integrations-api';

/** An integration's icon (its own image, or a generic one when it has none). */
export function IntegrationIcon({ integration, size = 40 }: { integration: Integration; size?: number }) {
  return integration.urls.icon ? (
    <img class="int-icon" src={integration.urls.icon} alt="" width={size} height={size} />
  ) : (
    <span class="int-icon int-icon-none" style={{ width: `${size}px`, height: `${size}px` }} aria-hidden="true">
      <Icon name="puzzle" />
    </span>
  );
}

const STATUS_LABELS: Record<InstallationStatus, string> = {
  active: 'Installed',
  pending: 'Needs configuration',
  paused: 'Paused',
};

/** "Installed" / "Needs configuration" / "Not installed". */
export function InstallBadge({ status }: { status: InstallationStatus | undefined }) {
  return (
    <span
      class={`badge ${status === 'active' ? 'badge-active' : status ? 'badge-outdated' : ''}`}
      data-testid="integration-status"
      data-status={status ?? 'none'}
    >
      {status ? STATUS_LABELS[status] : 'Not installed'}
    </span>
  );
}

/** The scopes an integration asks for, as small chips. */
export function ScopeList({ scopes }: { scopes: readonly string[] }) {
  if (scopes.length === 0) return <span class="muted">No access requested</span>;
  return (
    <ul class="int-scopes" aria-label="Scopes requested">
      {scopes.map((scope) => (
        <li key={scope}>
          <code>{scope}</code>
        </li>
      ))}
    </ul>
  );
}

/** One integration in a list: icon, title, summary, scopes, and whether it is installed. */
export function IntegrationCard(props: {
  orgId: string;
  integration: Integration;
  status: InstallationStatus | undefined;
}) {
  const { integration } = props;
  const to: Route = { view: 'integration', orgId: props.orgId, name: integration.name };
  return (
    <li class="int-card" data-testid="integration-card" data-name={integration.name}>
      <IntegrationIcon integration={integration} />
      <div class="int-card-main">
        <Link to={to} class="int-card-title" data-testid="integration-link">
          {integration.title}
        </Link>
        <p class="muted int-card-summary">{integration.summary ?? integration.description}</p>
        <ScopeList scopes={integration.scopes} />
      </div>
      <InstallBadge status={props.status} />
    </li>
  );
}
