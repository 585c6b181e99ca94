// The link convention alone (no imports), not the markdown index: that would load the parser at boot.
import { createLinkTargets, resolveLink, type ResolvedLink } from '../../../shared/markdown/links';
import type { RevisionView } from '../../docs/revision-view';
import type { MarkdownService } from '../../markdown/service';

/** One link found in a page of a revision, resolved against that revision. */
export interface FoundLink {
  /** The page the link is written in. */
  from: string;
  resolved: ResolvedLink;
  image: boolean;
}

const cache = new WeakMap<RevisionView, Promise<FoundLink[]>>();

/**
 * Every link of every document page of a revision, resolved against the
 * revision's own pages and files. Computed once per (immutable) revision;
 * pages are analysed by the markdown service (parse pool, cached per text,
 * so mostly already done when the revision was indexed), never on the event
 * loop. A page too complex to analyse has no links.
 */
export function linksOf(markdown: MarkdownService, view: RevisionView): Promise<FoundLink[]> {
  let found = cache.get(view);
  if (!found) {
    found = collectLinks(markdown, view);
    cache.set(view, found);
    // A failure is not kept: the next request tries again.
    found.catch(() => cache.delete(view));
  }
  return found;
}

async function collectLinks(markdown: MarkdownService, view: RevisionView): Promise<FoundLink[]> {
  const pages = [...view.pagesById.values()].filter((p) => p.type !== 'link' && typeof p.path === 'string');
  const targets = createLinkTargets(
    pages.map((p) => ({
      id: p.id,
      path: p.path as string,
      hasChildren: (p.pages ?? []).length > 0,
      group: p.type === 'group',
    })),
    view.filesById.values(),
  );
  const bodies = pages.filter((p) => typeof p.markdown === 'string');
  const analyses = await Promise.all(bodies.map((p) => markdown.analysis(p.markdown as string)));
  const found: FoundLink[] = [];
  bodies.forEach((page, i) => {
    for (const link of analyses[i]!.links) {
      found.push({ from: page.id, resolved: resolveLink(page.path as string, link.href, targets), image: link.image });
    }
  });
  return found;
}

/** What a link points at, as the API's reference objects. */
export interface RefContext {
  organization: string;
  space: string;
  revision: string;
  /** Prefix of the web app's URLs: links there are "in-app". */
  appPrefix: string;
}

function versionContext(c: RefContext) {
  return { type: 'revision' as const, revision: c.revision };
}

export function pageReference(c: RefContext, page: string) {
  return {
    kind: 'page' as const,
    organization: c.organization,
    space: c.space,
    page,
    versionContext: versionContext(c),
  };
}

function targetReference(c: RefContext, r: ResolvedLink) {
  switch (r.kind) {
    case 'page':
      return { ...pageReference(c, r.page), ...(r.anchor ? { anchor: r.anchor } : {}) };
    case 'file':
      return {
        kind: 'file' as const,
        organization: c.organization,
        space: c.space,
        file: r.file,
        versionContext: versionContext(c),
      };
    case 'anchor':
      return {
        kind: 'anchor' as const,
        organization: c.organization,
        space: c.space,
        anchor: r.anchor,
        versionContext: versionContext(c),
      };
    case 'url':
      return { kind: 'url' as const, url: r.url };
    case 'broken':
      return { kind: 'url' as const, url: r.href };
  }
}

export type LinkStatus = 'ok' | 'broken' | 'in-app';

function statusOf(c: RefContext, r: ResolvedLink): LinkStatus {
  if (r.kind === 'broken') return 'broken';
  if (r.kind === 'url' && r.url.startsWith(c.appPrefix)) return 'in-app';
  return 'ok';
}

/**
 * Groups links by target: one item per distinct target, with every page that
 * links to it as a location. Stats count all items, before any status filter.
 * Broken links of change requests are counted once change requests exist.
 */
export function linkItems(c: RefContext, links: FoundLink[], status?: LinkStatus) {
  const byTarget = new Map<
    string,
    {
      status: LinkStatus;
      relation: 'link' | 'image';
      targetReference: object;
      locationReferences: object[];
      from: Set<string>;
    }
  >();
  for (const link of links) {
    const target = targetReference(c, link.resolved);
    const key = `${link.image ? 'image' : 'link'}:${JSON.stringify(target)}`;
    let item = byTarget.get(key);
    if (!item)
      byTarget.set(
        key,
        (item = {
          status: statusOf(c, link.resolved),
          relation: link.image ? 'image' : 'link',
          targetReference: target,
          locationReferences: [],
          from: new Set(),
        }),
      );
    if (!item.from.has(link.from)) {
      item.from.add(link.from);
      item.locationReferences.push(pageReference(c, link.from));
    }
  }
  const all = [...byTarget.values()].map(({ from: _from, ...item }) => item);
  const broken = all.filter((i) => i.status === 'broken').length;
  return {
    items: status ? all.filter((i) => i.status === status) : all,
    stats: { total: all.length, broken: { total: broken, changeRequest: 0 } },
  };
}

/** Pages of the revision (whose links are `links`) that link to `pageId` (as page references, each once). */
export function pageBacklinks(c: RefContext, view: RevisionView, links: FoundLink[], pageId: string) {
  return backlinks(c, view, links, (r) => r.kind === 'page' && r.page === pageId);
}

/** Pages of the revision (whose links are `links`) that link to or embed `fileId`. */
export function fileBacklinks(c: RefContext, view: RevisionView, links: FoundLink[], fileId: string) {
  return backlinks(c, view, links, (r) => r.kind === 'file' && r.file === fileId);
}

function backlinks(c: RefContext, view: RevisionView, links: FoundLink[], matches: (r: ResolvedLink) => boolean) {
  const from = new Set<string>();
  for (const link of links) if (matches(link.resolved)) from.add(link.from);
  return [...from].filter((id) => view.pagesById.has(id)).map((id) => pageReference(c, id));
}
