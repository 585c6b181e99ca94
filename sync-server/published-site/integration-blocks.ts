import { createHash, randomBytes } from 'node:crypto';
import { findIntegrationTags, type IntegrationTagBlock } from '../../shared/markdown/integration-block';
import { markdownSources, renderContentKit } from '../../shared/contentkit';
import { escapeHtml } from '../markdown/site-html';
import { renderIntegrationBlock } from '../integrations';
import { findIntegration } from '../store/integrations';

/**
 * Integration blocks (`{% @integration/block key="value" %}`) in a published page. As for API
 * reference blocks (openapi-page.ts), each tag line is replaced by a marker paragraph before the
 * markdown is parsed (the parse stays cached by text), and the marker by the block's HTML after:
 * the integration's script renders the block (integrations/published-block.ts, cached there), and
 * its ContentKit is drawn by shared/contentkit, `markdown` elements through the site's sanitizing
 * markdown path. A block that cannot be drawn (integration not installed on the space, script
 * failed or too slow, no element) is a quiet placeholder with the block's title: never a broken
 * page. Visitors are not Folio members, so the reason is logged, not shown; the editor's preview
 * shows it to editors.
 */

const SECRET = randomBytes(16);
/** How long a page waits for one block's script. */
export const BLOCK_RENDER_TIMEOUT_MS = 10_000;

/** What rendering blocks needs: the integrations runtime (server.ts builds it) and the markdown path. */
export interface IntegrationBlockDeps {
  /** renderIntegrationBlock's dependencies (ctx.integrations: db, presenters, the block renderer). */
  runtime: Parameters<typeof renderIntegrationBlock>[0];
  /** A failure's reason, for the server's log. */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

/** A page's markdown with its integration blocks as markers, and how to put the blocks back. */
export interface PageWithIntegrationBlocks {
  markdown: string;
  /** Whether the page has blocks (its HTML then depends on the scripts' answers, not only on its text). */
  dynamic: boolean;
  /**
   * The body HTML with each marker replaced by its block. `markdown` renders a `markdown` element's
   * text to sanitized HTML (undefined: shown as text).
   */
  fill(
    html: string,
    spaceId: string,
    deps: IntegrationBlockDeps | undefined,
    markdown: (source: string) => Promise<string | undefined>,
  ): Promise<string>;
}

/** The placeholder of a block that could not be drawn. */
export function blockPlaceholder(title: string, reason?: string): string {
  return (
    `<div class="folio-ck-placeholder" role="note" data-integration-block="unavailable"><strong>${escapeHtml(title)}</strong>` +
    `${reason ? `<span class="ck-reason">${escapeHtml(reason)}</span>` : ''}</div>`
  );
}

/** The block's title in its integration's manifest, else `integration/block`. */
async function titleOf(deps: IntegrationBlockDeps | undefined, tag: IntegrationTagBlock): Promise<string> {
  const row = deps && (await findIntegration(deps.runtime.db, tag.integration).catch(() => undefined));
  const block = row?.manifest.blocks.find((b) => b.id === tag.block);
  return typeof block?.title === 'string' && block.title ? block.title : `${tag.integration}/${tag.block}`;
}

/** The HTML of one block, or its placeholder. */
async function blockHtml(
  tag: IntegrationTagBlock,
  spaceId: string,
  deps: IntegrationBlockDeps | undefined,
  markdown: (source: string) => Promise<string | undefined>,
): Promise<string> {
  const fail = async (reason: string) => {
    deps?.log?.('integration block not drawn', { integration: tag.integration, block: tag.block, spaceId, reason });
    return blockPlaceholder(await titleOf(deps, tag));
  };
  if (!deps) return fail('integrations are not available');
  let result;
  try {
    result = await renderIntegrationBlock(
      deps.runtime,
      { integrationName: tag.integration, spaceId, componentId: tag.block, props: tag.props },
      AbortSignal.timeout(BLOCK_RENDER_TIMEOUT_MS),
    );
  } catch (err) {
    return fail(err instanceof Error ? err.message : 'the block could not be rendered');
  }
  if (!result.ok) return fail(result.message);
  const { element, state } = result.output;
  if (typeof element !== 'object' || element === null) return fail('the integration answered no element');
  const bound = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
  const sources = markdownSources(element, bound);
  const rendered = new Map(await Promise.all(sources.map(async (s) => [s, await markdown(s)] as const)));
  return renderContentKit(element, { state: bound, markdown: (s) => rendered.get(s) });
}

/** Replaces the page's integration tags by marker lines (see the module comment). */
export function withIntegrationBlocks(markdown: string): PageWithIntegrationBlocks {
  const tags = findIntegrationTags(markdown);
  if (tags.length === 0) return { markdown, dynamic: false, fill: (html) => Promise.resolve(html) };
  const token = `folioblk${createHash('sha256').update(SECRET).update(markdown).digest('hex').slice(0, 24)}`;
  const lines = markdown.split('\n');
  const original = tags.map((t) => lines[t.line]!);
  tags.forEach((t, i) => (lines[t.line] = `\n${token}x${i}\n`));
  return {
    markdown: lines.join('\n'),
    dynamic: true,
    async fill(html, spaceId, deps, md) {
      const marker = new RegExp(`(<p>)?${token}x(\\d+)(</p>)?`, 'g');
      const used = new Set<number>();
      html.replace(marker, (m, open: string | undefined, i: string, close: string | undefined) => {
        if (open && close) used.add(Number(i));
        return m;
      });
      const drawn = new Map(
        await Promise.all([...used].map(async (i) => [i, await blockHtml(tags[i]!, spaceId, deps, md)] as const)),
      );
      return html.replace(marker, (_, open: string | undefined, i: string, close: string | undefined) => {
        const n = Number(i);
        if (open && close && drawn.has(n)) return drawn.get(n)!;
        // Not a paragraph of its own (a page shown as plain text): the tag as written.
        return `${open ?? ''}${escapeHtml(original[n] ?? '')}${close ?? ''}`;
      });
    },
  };
}
