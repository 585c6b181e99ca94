import { useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { useApp } from '../screens/context';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { confirmDialog } from '../ui/kit/dialog';
import { useAsync } from '../ui/kit/hooks';
import { Link } from '../ui/kit/link';
import { ConfigurationForm } from './configuration-form';
import { fieldsOf } from './configuration-form-model';
import { IntegrationIcon } from './integration-card';
import {
  findInstallation,
  getContentInstallation,
  installedInOrganization,
  installOnContent,
  listInstalledOn,
  uninstallFromContent,
  updateContentInstallation,
  type ContentKind,
  type Integration,
} from './integrations-api';
import './integrations.css';

/** Where the panel is: a space, or a site of the organization. */
export interface InstallTarget {
  orgId: string;
  kind: ContentKind;
  id: string;
}

const runsOn = (i: Integration, kind: ContentKind) => i.target === 'all' || i.target === kind;

/**
 * The integrations of one space or site (GitBook's space "Integrations" menu, a site's
 * Integrations): what is installed there and, for who may install there (`manage`), the
 * organization's integrations that could run there, with Install, Configure and Uninstall.
 */
export function InstalledHere(props: { target: InstallTarget; manage: boolean; close?: () => void }) {
  const { target, manage } = props;
  const { session } = useApp();
  const api = session.api;
  const loaded = useAsync(async () => {
    const here = await listInstalledOn(
      api,
      target.kind === 'space' ? { space: target.id } : { orgId: target.orgId, site: target.id },
    );
    // The organization's installations answer only its members who may list integrations.
    const inOrg = manage ? await installedInOrganization(api, target.orgId).catch(() => []) : [];
    const names = new Set(here.map((i) => i.name));
    const available = inOrg.map((i) => i.integration).filter((i) => runsOn(i, target.kind) && !names.has(i.name));
    return { here, available };
  }, [api, target.orgId, target.kind, target.id, manage]);
  const [error, setError] = useState('');
  const [open, setOpen] = useState<string | undefined>();
  const noun = target.kind;

  const act = async (run: () => Promise<unknown>) => {
    setError('');
    try {
      await run();
      loaded.retry();
    } catch (err) {
      setError(describeError(err));
    }
  };
  const installationId = async (name: string) => {
    const installation = await findInstallation(api, target.orgId, name);
    if (!installation?.id) throw new Error('This app cannot find the organization’s installation of the integration.');
    return installation.id;
  };
  const install = (i: Integration) =>
    act(async () => {
      await installOnContent(api, i.name, await installationId(i.name), target.kind, target.id);
      if (fieldsOf(i.configurations?.[target.kind]).length > 0) setOpen(i.name);
    });
  const uninstall = async (i: Integration) => {
    if (!(await confirmDialog(`Uninstall ${i.title} from this ${noun}?`, 'Uninstall'))) return;
    await act(async () => uninstallFromContent(api, i.name, await installationId(i.name), target.kind, target.id));
  };

  return (
    <div class="int-here" data-testid={`${noun}-integrations`}>
      <AsyncSection state={loaded.state} what="the integrations" retry={loaded.retry}>
        {({ here, available }) => (
          <>
            <h3>Installed on this {noun}</h3>
            {here.length === 0 ? (
              <EmptyState message={`No integration runs on this ${noun}.`} />
            ) : (
              <ul class="org-list int-here-list" data-testid="installed-here">
                {here.map((i) => (
                  <li key={i.name} data-testid="installed-here-row" data-name={i.name}>
                    <div class="int-here-row">
                      <IntegrationIcon integration={i} size={28} />
                      <Link
                        to={{ view: 'integration', orgId: target.orgId, name: i.name }}
                        class="int-here-title"
                        onClick={() => props.close?.()}
                      >
                        {i.title}
                      </Link>
                      {manage && fieldsOf(i.configurations?.[target.kind]).length > 0 && (
                        <button
                          type="button"
                          aria-expanded={open === i.name}
                          data-testid="here-configure"
                          onClick={() => setOpen(open === i.name ? undefined : i.name)}
                        >
                          Configure
                        </button>
                      )}
                      {manage && (
                        <button
                          type="button"
                          class="danger"
                          data-testid="here-uninstall"
                          onClick={() => void uninstall(i)}
                        >
                          Uninstall
                        </button>
                      )}
                    </div>
                    {open === i.name && <HereForm target={target} integration={i} close={() => setOpen(undefined)} />}
                  </li>
                ))}
              </ul>
            )}
            {manage && (
              <>
                <h3>Available in the organization</h3>
                {available.length === 0 ? (
                  <p class="muted">
                    No other integration of the organization runs on {noun}s.{' '}
                    <Link
                      to={{ view: 'org', orgId: target.orgId, tab: 'integrations' }}
                      onClick={() => props.close?.()}
                    >
                      Browse integrations
                    </Link>
                  </p>
                ) : (
                  <ul class="org-list int-here-list" data-testid="available-here">
                    {available.map((i) => (
                      <li key={i.name} data-testid="available-here-row" data-name={i.name}>
                        <div class="int-here-row">
                          <IntegrationIcon integration={i} size={28} />
                          <span class="int-here-title">{i.title}</span>
                          <button
                            type="button"
                            class="primary"
                            data-testid="here-install"
                            onClick={() => void install(i)}
                          >
                            Install
                          </button>
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              </>
            )}
            <p class="form-message" role="alert" data-testid="here-error">
              {error}
            </p>
          </>
        )}
      </AsyncSection>
    </div>
  );
}

/** The configuration form of the integration on this space or site, with what it holds now. */
function HereForm(props: { target: InstallTarget; integration: Integration; close: () => void }) {
  const { target, integration } = props;
  const { session } = useApp();
  const api = session.api;
  const current = useAsync(async () => {
    const installation = await findInstallation(api, target.orgId, integration.name);
    if (!installation?.id) throw new Error('the organization’s installation is not known to this app');
    return {
      installationId: installation.id,
      content: await getContentInstallation(api, integration.name, installation.id, target.kind, target.id),
    };
  }, [api, target.orgId, target.kind, target.id, integration.name]);
  return (
    <div class="int-content-form">
      <AsyncSection state={current.state} what="its configuration" retry={current.retry}>
        {({ installationId, content }) => (
          <ConfigurationForm
            schema={integration.configurations?.[target.kind]}
            stored={content.configuration}
            submitLabel="Save"
            testid="here-config-form"
            onCancel={props.close}
            save={async (configuration) => {
              await updateContentInstallation(
                api,
                integration.name,
                installationId,
                target.kind,
                target.id,
                configuration,
              );
            }}
          />
        )}
      </AsyncSection>
    </div>
  );
}
