import { useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { useApp } from '../screens/context';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { confirmDialog } from '../ui/kit/dialog';
import { useAsync, useResource } from '../ui/kit/hooks';
import { ConfigurationForm } from './configuration-form';
import { fieldsOf } from './configuration-form-model';
import { InstallBadge } from './integration-card';
import {
  installOnContent,
  listContentInstallations,
  uninstallFromContent,
  updateContentInstallation,
  type ContentInstallation,
  type ContentKind,
  type Integration,
} from './integrations-api';

const targetId = (c: ContentInstallation, kind: ContentKind) => {
  const target = kind === 'space' ? c.space : c.site;
  return typeof target === 'string' ? target : (target?.id ?? '');
};

/**
 * The spaces (or sites) an organization's installation runs on: each with its status, its own
 * configuration form (the integration's `configurations.space` / `.site`) and Uninstall; and a
 * picker of the organization's other spaces (sites) to install it on.
 */
export function ContentInstallations(props: {
  orgId: string;
  integration: Integration;
  installationId: string;
  kind: ContentKind;
}) {
  const { session, stores } = useApp();
  const { integration, installationId, kind } = props;
  const api = session.api;
  const list = useAsync(
    () => listContentInstallations(api, integration.name, installationId, kind),
    [api, integration.name, installationId, kind],
  );
  const targets = useResource<string, { id: string; title: string }[]>(
    kind === 'space' ? stores.orgSpaces : stores.orgSites,
    props.orgId,
  );
  const [choice, setChoice] = useState('');
  const [error, setError] = useState('');
  const [open, setOpen] = useState<string | undefined>();
  const schema = integration.configurations?.[kind];
  const configurable = fieldsOf(schema).length > 0;
  const noun = kind === 'space' ? 'space' : 'site';
  const titles = new Map(('data' in targets.state ? (targets.state.data ?? []) : []).map((t) => [t.id, t.title]));

  const act = async (run: () => Promise<unknown>) => {
    setError('');
    try {
      await run();
      list.retry();
    } catch (err) {
      setError(describeError(err));
    }
  };
  const install = () =>
    act(async () => {
      await installOnContent(api, integration.name, installationId, kind, choice);
      // A configurable integration opens its form on the new row at once.
      if (configurable) setOpen(choice);
      setChoice('');
    });
  const uninstall = async (id: string) => {
    if (!(await confirmDialog(`Uninstall ${integration.title} from “${titles.get(id) ?? id}”?`, 'Uninstall'))) return;
    await act(() => uninstallFromContent(api, integration.name, installationId, kind, id));
  };

  return (
    <AsyncSection state={list.state} what={`the ${noun}s`} retry={list.retry}>
      {(items) => {
        const installed = new Set(items.map((c) => targetId(c, kind)));
        const available = ('data' in targets.state ? (targets.state.data ?? []) : []).filter(
          (t) => !installed.has(t.id),
        );
        return (
          <>
            {items.length === 0 ? (
              <EmptyState message={`Not installed on any ${noun} yet.`} />
            ) : (
              <ul class="org-list int-content-list" data-testid={`installed-${kind}s`}>
                {items.map((c) => {
                  const id = targetId(c, kind);
                  return (
                    <li key={id} data-testid={`installed-${kind}`} data-id={id} class="int-content-row">
                      <span class="int-content-title">{titles.get(id) ?? id}</span>
                      <InstallBadge status={c.status} />
                      {configurable && (
                        <button
                          type="button"
                          aria-expanded={open === id}
                          data-testid={`configure-${kind}`}
                          onClick={() => setOpen(open === id ? undefined : id)}
                        >
                          Configure
                        </button>
                      )}
                      <button
                        type="button"
                        class="danger"
                        data-testid={`uninstall-${kind}`}
                        onClick={() => void uninstall(id)}
                      >
                        Uninstall
                      </button>
                      {open === id && (
                        <div class="int-content-form">
                          <ConfigurationForm
                            schema={schema}
                            stored={c.configuration}
                            submitLabel="Save"
                            testid={`${kind}-config-form`}
                            onCancel={() => setOpen(undefined)}
                            save={async (configuration) => {
                              await updateContentInstallation(
                                api,
                                integration.name,
                                installationId,
                                kind,
                                id,
                                configuration,
                              );
                              list.retry();
                            }}
                          />
                        </div>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
            <div class="int-add-row">
              <label>
                <span>Add a {noun}</span>
                <select
                  value={choice}
                  data-testid={`add-${kind}-select`}
                  onChange={(event) => setChoice(event.currentTarget.value)}
                >
                  <option value="">{available.length ? `Choose a ${noun}…` : `No other ${noun}`}</option>
                  {available.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.title || `Untitled ${noun}`}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="button"
                class="primary"
                disabled={!choice}
                data-testid={`add-${kind}`}
                onClick={() => void install()}
              >
                Install on {noun}
              </button>
            </div>
            <p class="form-message" role="alert">
              {error}
            </p>
          </>
        );
      }}
    </AsyncSection>
  );
}
