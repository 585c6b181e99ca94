import { useState } from 'preact/hooks';
import { describeError } from '../api/client';
import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { AsyncSection } from '../ui/kit/async-section';
import { confirmDialog } from '../ui/kit/dialog';
import { useAsync, useResource, useWindowTitle } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { ConfigurationForm } from './configuration-form';
import { fieldsOf } from './configuration-form-model';
import { ContentInstallations } from './content-installations';
import { EventsPanel } from './events-panel';
import { InstallBadge, IntegrationIcon, ScopeList } from './integration-card';
import {
  findInstallation,
  getIntegration,
  installIntegration,
  uninstallIntegration,
  updateInstallation,
  type Installation,
  type Integration,
} from './integrations-api';
import './integrations.css';

/**
 * One integration (GitBook's integration page): what it does and the access it asks for; for the
 * organization's admins, Install, its configuration form (`configurations.account`), the spaces and
 * sites it runs on (each with its own form), and Uninstall; for its publishers, its events.
 */
export default function IntegrationScreen({ route }: { route: Route }) {
  const { orgId, name } = route as Route & { view: 'integration' };
  const { session } = useApp();
  const api = session.api;
  const loaded = useAsync(
    async () => ({
      integration: await getIntegration(api, name),
      installation: await findInstallation(api, orgId, name),
    }),
    [api, orgId, name],
  );
  const data = 'data' in loaded.state ? loaded.state.data : undefined;
  useWindowTitle(data?.integration.title);
  return (
    <div class="int-screen" data-testid="integration-screen">
      <Link to={{ view: 'org', orgId, tab: 'integrations' }} class="int-back">
        <Icon name="arrow-left" /> Integrations
      </Link>
      <AsyncSection state={loaded.state} what="the integration" retry={loaded.retry}>
        {({ integration, installation }) => (
          <IntegrationPage orgId={orgId} integration={integration} installation={installation} reload={loaded.retry} />
        )}
      </AsyncSection>
    </div>
  );
}

function IntegrationPage(props: {
  orgId: string;
  integration: Integration;
  installation: Installation | undefined;
  reload: () => void;
}) {
  const { orgId, integration, installation } = props;
  const { session, stores } = useApp();
  const api = session.api;
  const { state: orgState } = useResource(stores.org, orgId);
  const org = 'data' in orgState ? orgState.data : undefined;
  const permissions = org?.permissions as ({ installIntegration?: boolean } & Record<string, unknown>) | undefined;
  const manage = (permissions?.installIntegration ?? permissions?.admin) === true;
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<unknown>) => {
    setError('');
    setBusy(true);
    try {
      await run();
      props.reload();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  const uninstall = async () => {
    if (
      !(await confirmDialog(
        `Uninstall ${integration.title} from this organization? It is also removed from every space and site it runs on, with their configurations.`,
        'Uninstall',
      ))
    )
      return;
    await act(() => uninstallIntegration(api, orgId, integration.name, installation!.id));
  };
  const targets = (kind: 'space' | 'site') => integration.target === 'all' || integration.target === kind;
  const known = installation && installation.id !== '';
  const accountFields = fieldsOf(integration.configurations?.account);
  return (
    <>
      <header class="int-header">
        <IntegrationIcon integration={integration} size={56} />
        <div class="int-header-main">
          <h1 class="org-heading" data-testid="integration-title">
            {integration.title}
          </h1>
          <p class="muted">
            By {integration.owner.title} · version {integration.version} ·{' '}
            <span class="badge">{integration.visibility}</span>
          </p>
        </div>
        <div class="int-header-actions">
          <InstallBadge status={installation?.status} />
          {manage && !installation && (
            <button
              type="button"
              class="primary"
              disabled={busy}
              data-testid="integration-install"
              onClick={() => void act(() => installIntegration(api, orgId, integration.name))}
            >
              Install
            </button>
          )}
          {manage && known && (
            <button
              type="button"
              class="danger"
              disabled={busy}
              data-testid="integration-uninstall"
              onClick={() => void uninstall()}
            >
              Uninstall
            </button>
          )}
        </div>
      </header>
      <p class="form-message" role="alert" data-testid="integration-error">
        {error}
      </p>
      {!manage && !installation && (
        <p class="muted" data-testid="integration-ask-admin">
          An administrator of the organization installs integrations.
        </p>
      )}
      <section class="org-panel" aria-labelledby="int-about-title">
        <h2 id="int-about-title">About</h2>
        <p class="int-description" data-testid="integration-description">
          {integration.description || integration.summary}
        </p>
        <h3>Access it asks for</h3>
        <ScopeList scopes={integration.scopes} />
        {integration.categories.length > 0 && <p class="muted">Categories: {integration.categories.join(', ')}</p>}
        {(integration.externalLinks ?? []).length > 0 && (
          <ul class="int-links">
            {integration.externalLinks!.map((link) => (
              <li key={link.url}>
                <a href={link.url} target="_blank" rel="noreferrer noopener">
                  {link.label} <Icon name="external-link" />
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      {installation && !known && (
        <p class="muted" data-testid="integration-unknown-installation">
          It is installed here, but this app did not install it: uninstall and configure it where it was installed.
        </p>
      )}
      {manage && known && (
        <>
          <section class="org-panel" aria-labelledby="int-config-title" data-testid="integration-configuration">
            <h2 id="int-config-title">Configuration</h2>
            {installation.status === 'pending' && (
              <p class="int-notice" role="status">
                Fill in the required settings to start the integration.
              </p>
            )}
            {accountFields.length === 0 && !integration.configurations?.account?.componentId ? (
              <p class="muted">This integration has nothing to configure for the organization.</p>
            ) : (
              <ConfigurationForm
                key={installation.id}
                schema={integration.configurations?.account}
                stored={installation.configuration}
                submitLabel="Save configuration"
                testid="account-config-form"
                save={async (configuration) => {
                  await updateInstallation(api, integration.name, installation.id, { configuration });
                  props.reload();
                }}
              />
            )}
          </section>
          {(['space', 'site'] as const).filter(targets).map((kind) => (
            <section
              key={kind}
              class="org-panel"
              aria-labelledby={`int-${kind}s-title`}
              data-testid={`integration-${kind}s`}
            >
              <h2 id={`int-${kind}s-title`}>{kind === 'space' ? 'Spaces' : 'Sites'}</h2>
              <p class="muted">
                {kind === 'space' ? 'The spaces' : 'The docs sites'} it runs on, each with its own settings.
              </p>
              <ContentInstallations
                orgId={orgId}
                integration={integration}
                installationId={installation.id}
                kind={kind}
              />
            </section>
          ))}
        </>
      )}
      {integration.permissions.admin && <EventsPanel name={integration.name} />}
    </>
  );
}
