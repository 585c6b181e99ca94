import { Facet } from '@codemirror/state';
import type { ApiClient } from '../../api/client';

/**
 * What the editor knows of the space's integration blocks: the blocks of the integrations installed
 * on it (GET /spaces/{spaceId}/integration-blocks, for the `/` menu) and each block's rendered
 * ContentKit (POST /integrations/{name}/render, for the live preview). Reads are synchronous and
 * answer from a cache (decorations are built on every keystroke and never wait on the network); a
 * miss starts one request, and subscribers redraw when it lands.
 */

/** GitBook's IntegrationBlock. */
export interface IntegrationBlockInfo {
  id: string;
  title: string;
  description?: string;
  icon?: string;
  markdown?: { codeblock: string; body: string };
}

/** GitBook's SpaceIntegrationBlocks entry: an installed integration and its blocks. */
export interface SpaceIntegrationBlocks {
  name: string;
  blocks: IntegrationBlockInfo[];
}

/** A block to render: its tag's integration, block id and props, with the state and action of an interaction. */
export interface BlockRenderInput {
  integration: string;
  block: string;
  props: Record<string, unknown>;
  state?: Record<string, unknown>;
  action?: Record<string, unknown>;
}

/** What the preview shows for a block. */
export type BlockRender =
  | { status: 'loading' }
  | { status: 'ok'; element: unknown; state: Record<string, unknown>; props: Record<string, unknown> }
  | { status: 'error'; message: string };

export interface IntegrationBlocksCatalog {
  /** The installed integrations' blocks; undefined until loaded. */
  installed(): readonly SpaceIntegrationBlocks[] | undefined;
  /** The block's title in its manifest, if known. */
  title(integration: string, block: string): string | undefined;
  /** The first render of a block (no state, no action), from the cache; starts it when missing. */
  rendered(input: BlockRenderInput): BlockRender;
  /** Renders an interaction (an action with the current state); the answer replaces the block's render. */
  act(input: BlockRenderInput): Promise<BlockRender>;
  subscribe(listener: () => void): () => void;
}

export const integrationBlocksFacet = Facet.define<IntegrationBlocksCatalog, IntegrationBlocksCatalog | undefined>({
  combine: (values) => values[0],
});

const keyOf = (i: BlockRenderInput) => JSON.stringify([i.integration, i.block, i.props]);
const theme = (): 'light' | 'dark' =>
  typeof document !== 'undefined' &&
  (document.documentElement.dataset.theme === 'dark' ||
    (document.documentElement.dataset.theme !== 'light' && matchMedia?.('(prefers-color-scheme: dark)').matches))
    ? 'dark'
    : 'light';

/** The message of a failed request, for the editor's placeholder (editors may see why). */
function reason(err: unknown): string {
  return err instanceof Error && err.message ? err.message : 'The block could not be rendered';
}

/** A catalog over the API for space `spaceId`. */
export function createIntegrationBlocksCatalog(api: ApiClient, spaceId: string): IntegrationBlocksCatalog {
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  let installed: SpaceIntegrationBlocks[] | undefined;
  let loading = false;
  const renders = new Map<string, BlockRender>();

  const load = () => {
    if (loading || installed) return;
    loading = true;
    api
      .request<SpaceIntegrationBlocks[]>(`/spaces/${encodeURIComponent(spaceId)}/integration-blocks`)
      .then((list) => (installed = Array.isArray(list) ? list : []))
      .catch(() => (installed = []))
      .finally(() => {
        loading = false;
        notify();
      });
  };

  const request = async (input: BlockRenderInput): Promise<BlockRender> => {
    try {
      const out = await api.request<Record<string, unknown>>(
        `/integrations/${encodeURIComponent(input.integration)}/render`,
        {
          method: 'POST',
          body: {
            componentId: input.block,
            props: input.props,
            ...(input.state ? { state: input.state } : {}),
            ...(input.action ? { action: input.action } : {}),
            context: { type: 'document', spaceId, editable: true, theme: theme() },
          },
        },
      );
      if (!out || typeof out.element !== 'object' || out.element === null)
        return { status: 'error', message: 'The integration answered no element' };
      return {
        status: 'ok',
        element: out.element,
        state: (typeof out.state === 'object' && out.state) || {},
        props: (typeof out.props === 'object' && out.props) || input.props,
      } as BlockRender;
    } catch (err) {
      return { status: 'error', message: reason(err) };
    }
  };

  return {
    installed() {
      load();
      return installed;
    },
    title(integration, block) {
      return installed?.find((i) => i.name === integration)?.blocks.find((b) => b.id === block)?.title;
    },
    rendered(input) {
      const key = keyOf(input);
      const known = renders.get(key);
      if (known) return known;
      const loading: BlockRender = { status: 'loading' }; // the same object until it lands: widgets stay equal
      renders.set(key, loading);
      void request(input).then((r) => {
        renders.set(key, r);
        notify();
      });
      return loading;
    },
    async act(input) {
      const r = await request(input);
      renders.set(keyOf(input), r);
      notify();
      return r;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** One catalog per client and space: its cache outlives the page (opening another page reuses it). */
const catalogs = new WeakMap<ApiClient, Map<string, IntegrationBlocksCatalog>>();

/** The editor extension for space `spaceId`: the `/` menu lists its blocks and the preview renders them. */
export function integrationBlocksExtension(api: ApiClient, spaceId: string) {
  let bySpace = catalogs.get(api);
  if (!bySpace) catalogs.set(api, (bySpace = new Map()));
  let catalog = bySpace.get(spaceId);
  if (!catalog) bySpace.set(spaceId, (catalog = createIntegrationBlocksCatalog(api, spaceId)));
  return integrationBlocksFacet.of(catalog);
}
