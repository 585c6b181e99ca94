import { useState } from 'preact/hooks';
import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { useAsync } from '../ui/kit/hooks';
import { IntegrationCard } from './integration-card';
import {
  installedInOrganization,
  listIntegrations,
  listOrganizationIntegrations,
  type InstallationStatus,
  type Integration,
} from './integrations-api';
import './integrations.css';

/** GitBook's integration categories (IntegrationCategory), with their captions. */
const CATEGORIES: [string, string][] = [
  ['analytics', 'Analytics'],
  ['collaboration', 'Collaboration'],
  ['content', 'Content'],
  ['marketing', 'Marketing'],
  ['visitor-auth', 'Visitor authentication'],
  ['other', 'Other'],
];

/**
 * The organization's integrations (GitBook's Settings → Integrations): those installed here and
 * those it publishes, then the public catalog with a search and a category filter. Each shows its
 * icon, title, summary, the scopes it asks for, and whether it is installed here.
 */
export default function IntegrationsScreen({ route }: { route: Route }) {
  const { orgId } = route as Route & { view: 'org' };
  const { session } = useApp();
  const api = session.api;
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const statuses = useAsync(async () => {
    const installed = await installedInOrganization(api, orgId);
    return new Map<string, InstallationStatus>(installed.map((i) => [i.integration.name, i.status]));
  }, [api, orgId]);
  const own = useAsync(() => listOrganizationIntegrations(api, orgId), [api, orgId]);
  const catalog = useAsync(
    () => listIntegrations(api, { search: search.trim() || undefined, category: category || undefined }),
    [api, search, category],
  );
  const statusMap = 'data' in statuses.state ? statuses.state.data : undefined;
  const statusOf = (i: Integration) => statusMap?.get(i.name);
  return (
    <div class="int-screen" data-testid="integrations-screen">
      <div class="org-panel-header">
        <h1 class="org-heading">Integrations</h1>
      </div>
      <p class="muted">
        Integrations add features to this organization’s spaces and sites. Install one here, then choose where it runs.
      </p>
      <section class="org-panel" aria-labelledby="int-mine-title" data-testid="org-integrations">
        <h2 id="int-mine-title">In this organization</h2>
        <AsyncSection state={own.state} what="the organization’s integrations" retry={own.retry}>
          {(items) => {
            const mine = items.filter((i) => statusOf(i) !== undefined || i.owner.id === orgId);
            return mine.length === 0 ? (
              <EmptyState message="No integration is installed or published here yet. Find one in the catalog below." />
            ) : (
              <ul class="int-list" data-testid="org-integration-list">
                {mine.map((i) => (
                  <IntegrationCard key={i.name} orgId={orgId} integration={i} status={statusOf(i)} />
                ))}
              </ul>
            );
          }}
        </AsyncSection>
      </section>
      <section class="org-panel" aria-labelledby="int-catalog-title" data-testid="integration-catalog">
        <h2 id="int-catalog-title">Catalog</h2>
        <div class="int-filters" role="search">
          <label class="int-filter-search">
            <span class="sr-only">Search integrations</span>
            <input
              type="search"
              placeholder="Search integrations"
              value={search}
              data-testid="integration-search"
              onInput={(event) => setSearch(event.currentTarget.value)}
            />
          </label>
          <label class="int-filter-category">
            <span class="sr-only">Category</span>
            <select
              value={category}
              data-testid="integration-category"
              onChange={(event) => setCategory(event.currentTarget.value)}
            >
              <option value="">All categories</option>
              {CATEGORIES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <AsyncSection state={catalog.state} what="the catalog" retry={catalog.retry}>
          {(items) =>
            items.length === 0 ? (
              <EmptyState
                message={search || category ? 'No public integration matches.' : 'No public integration yet.'}
              />
            ) : (
              <ul class="int-list" data-testid="catalog-list">
                {items.map((i) => (
                  <IntegrationCard key={i.name} orgId={orgId} integration={i} status={statusOf(i)} />
                ))}
              </ul>
            )
          }
        </AsyncSection>
      </section>
    </div>
  );
}
