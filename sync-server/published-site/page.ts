import { createLinkTargets, type LinkTargets } from '../../shared/markdown';
import type { SiteSpaceRow } from '../store/sites';
import type { StoredFile, RevisionView } from '../docs/revision-view';
import type { Storage } from '../store/file-storage';
import type { StoredPage } from '../docs/revision-store';
import type { MarkdownService } from '../markdown/service';
import type { PublishedLook } from './look';
import { renderNotFound, renderPage, type NavLink, type PageContent, type PageFrame } from './layout';
import { dropRepeatedTitle, pageNeighbours } from './page-parts';
import { renderMarkdown } from './markdown';
import { degradedWithoutHiddenLinks, hiddenLinkTest } from './hidden-links';
import type { HiddenPages } from './page-audience';
import { defaultSiteSpaceIn, siteSpacePath, type Located, type VisibleSite } from './resolve';
import { sectionVariants, siteSpaceLanguage } from './language-variants';
import { languageLinks } from './language-links';
import type { OpenApiSource } from './openapi-source';
import { withOpenApiBlocks } from './openapi-page';
import { fenced } from './openapi-blocks';
import { withIntegrationBlocks, type IntegrationBlockDeps } from './integration-blocks';

/** The outcome of rendering one published URL. */
export type PageResult =
  | {
      kind: 'html';
      html: string;
      noindex: boolean;
      status?: 404;
      /** Holds integration blocks: not to be kept as rendered. */ dynamic?: boolean;
    }
  | { kind: 'redirect'; location: string; permanent?: boolean }
  | { kind: 'not-found' };

/** Link lookups of a revision, built once per (immutable) revision. */
const targetsByView = new WeakMap<RevisionView, { targets: LinkTargets; firstPage?: StoredPage }>();

export function linkTargetsOf(view: RevisionView) {
  let entry = targetsByView.get(view);
  if (!entry) {
    const pages: { id: string; path: string; hasChildren: boolean; group: boolean }[] = [];
    let firstPage: StoredPage | undefined;
    const walk = (list: StoredPage[]) => {
      for (const p of list) {
        if (typeof p.path === 'string')
          pages.push({ id: p.id, path: p.path, hasChildren: (p.pages?.length ?? 0) > 0, group: p.type === 'group' });
        if (!firstPage && p.type === 'document' && p.hidden !== true) firstPage = p;
        walk(p.pages ?? []);
      }
    };
    walk(view.revision.pages);
    entry = {
      targets: createLinkTargets(
        pages,
        (view.revision.files as StoredFile[]).map((f) => ({ id: f.id, name: f.name })),
      ),
      firstPage,
    };
    targetsByView.set(view, entry);
  }
  return entry;
}

/** The first document page under a page (for group pages, which have no content of their own). */
function firstDocumentIn(page: StoredPage): StoredPage | undefined {
  for (const child of page.pages ?? []) {
    if (child.type === 'document') return child;
    const deeper = firstDocumentIn(child);
    if (deeper) return deeper;
  }
  return undefined;
}

/** Everything rendering one published page needs. */
export interface PageRequest {
  /** Path of the site root on this host: '/sites/<id>/' or '/'. */
  base: string;
  visible: VisibleSite;
  located: Located;
  view: RevisionView;
  /** The pages `view` leaves out for this visitor (links to them render as their text). */
  hidden?: HiddenPages;
  storage: Storage;
  /** Parses page markdown (parse pool, cached per text: another URL for the same page parses nothing). */
  markdown: MarkdownService;
  spaceTitle(siteSpace: SiteSpaceRow): string;
  /** Absolute URL of the site root (canonical URLs). */
  canonicalBase: string;
  /** Version of the site script, in its URL (so browsers may cache it for good). */
  scriptVersion: string;
  /** The site's customization. */
  look?: PublishedLook;
  /** The page that used to live at a path (renamed or moved), to redirect its old URLs. */
  formerPage?(view: RevisionView, path: string): Promise<StoredPage | undefined>;
  /** The organization's OpenAPI specs, for API reference blocks (none: the blocks say the spec is not found). */
  openapi?: OpenApiSource;
  /** The integrations runtime, for integration blocks (none: the blocks are placeholders). */
  integrations?: IntegrationBlockDeps;
  /**
   * The views of the section's language variants by site space id (language-views.ts), for the
   * language switcher's same-page links; a language missing here links to its first page.
   */
  languageViews?: ReadonlyMap<string, RevisionView>;
}

/** Section tabs in display order; consecutive sections of one group share its label. */
function sectionTabs(r: PageRequest): PageFrame['sectionTabs'] {
  if (r.visible.sections.length < 2) return [];
  const tabs: PageFrame['sectionTabs'] = [];
  let previousGroup: string | null | undefined;
  for (const s of r.visible.sections) {
    const href = s.id === r.visible.defaultSection?.id ? r.base : `${r.base}${encodeURIComponent(s.path)}/`;
    const linkTo: NavLink = { title: s.title, href, current: s.id === r.located.section?.id };
    const last = tabs.at(-1);
    if (last && s.group_id !== null && s.group_id === previousGroup) last.links.push(linkTo);
    else {
      const group = s.group_id ? r.visible.tree.group(s.group_id)?.title : undefined;
      tabs.push({ ...(group ? { group } : {}), links: [linkTo] });
    }
    previousGroup = s.group_id;
  }
  return tabs;
}

/**
 * Renders the page a located URL addresses, or says where to go instead. A
 * page too complex to format is shown as plain text (class `folio-degraded`).
 */
export async function buildPage(r: PageRequest): Promise<PageResult> {
  const { located, view, visible } = r;
  const { targets, firstPage } = linkTargetsOf(view);
  const spaceBase = r.base + siteSpacePath(visible, located.section, located.siteSpace);
  const pageHref = (p: StoredPage) => (p === firstPage ? spaceBase : spaceBase + encodePath(String(p.path)));
  const variants = sectionVariants(visible, located.section, located.siteSpace);
  const spaceHref = (ss: SiteSpaceRow) => r.base + siteSpacePath(visible, located.section, ss);
  // Each language's entry leads to the same page in that language when it has one (language-links.ts).
  const languages = (pagePath?: string) => {
    if (variants.languages.length === 0) return { links: [], alternates: [] };
    const defaultSiteSpace = defaultSiteSpaceIn(visible, located.section);
    return languageLinks({
      languages: variants.languages,
      views: new Map(r.languageViews).set(located.siteSpace.id, view),
      current: located.siteSpace,
      pagePath,
      defaultLanguage: defaultSiteSpace && siteSpaceLanguage(visible, defaultSiteSpace),
      hrefIn: (ss, v, p) =>
        p && v && p !== linkTargetsOf(v).firstPage ? spaceHref(ss) + encodePath(String(p.path)) : spaceHref(ss),
      absolute: (href) => r.canonicalBase + href.slice(r.base.length),
    });
  };
  const frameFor = (links: PageFrame['languages']): PageFrame => ({
    siteTitle: r.look?.title ?? visible.tree.site.title,
    homeHref: r.base,
    sectionTabs: sectionTabs(r),
    variants: variants.versions.map((ss) => ({
      title: r.spaceTitle(ss),
      href: spaceHref(ss),
      current: ss.id === located.siteSpace.id,
    })),
    languages: links,
    language: variants.language,
    assets: `${r.base}~folio/`,
    scriptVersion: r.scriptVersion,
    look: r.look,
  });
  const notFound = (): PageResult => ({
    kind: 'html',
    status: 404,
    noindex: true,
    html: renderNotFound(frameFor(languages().links), { pages: view.revision.pages, pageHref }),
  });
  let page = located.pagePath === '' ? firstPage : view.pagesByPath.get(located.pagePath);
  if (!page) {
    // An old address of a renamed or moved page: send readers (and search engines) to where it lives now.
    const moved = await r.formerPage?.(view, located.pagePath);
    return moved && moved.type !== 'link'
      ? { kind: 'redirect', location: pageHref(moved), permanent: true }
      : notFound();
  }
  if (page.type === 'group') {
    const first = firstDocumentIn(page);
    return first ? { kind: 'redirect', location: spaceBase + encodePath(String(first.path)) } : notFound();
  }
  if (page.type !== 'document') return notFound();
  page = page as StoredPage;
  // API reference blocks stand as markers while the markdown is parsed, then take their spec's HTML.
  const blocks = withOpenApiBlocks(String(page.markdown ?? ''));
  // Integration blocks likewise, then take what their integration's script draws (integration-blocks.ts).
  const integrationBlocks = withIntegrationBlocks(blocks.markdown);
  const body = await r.markdown.site(integrationBlocks.markdown);
  const isHidden = r.hidden && hiddenLinkTest(r.hidden.ids, linkTargetsOf(r.hidden.full).targets, String(page.path));
  const linkedHtml = renderMarkdown(body, String(page.path), {
    targets,
    isHidden,
    pageUrl: (id, anchor) => {
      const target = view.pagesById.get(id);
      return target ? pageHref(target) + (anchor ? `#${encodeURIComponent(anchor)}` : '') : undefined;
    },
    fileUrl: (id) => {
      const file = view.filesById.get(id);
      return file ? r.storage.downloadUrl(file, view.revision.spaceId) : undefined;
    },
  });
  // Their code is highlighted as fences of a page are: in the parse pool, cached by text.
  const apiHtml = await blocks.fill(linkedHtml, r.openapi, async (lang, code) => {
    const fence = await r.markdown.site(fenced(lang, code));
    return fence.degraded ? undefined : fence.html;
  });
  const bodyHtml = await integrationBlocks.fill(apiHtml, view.revision.spaceId, r.integrations, async (source) => {
    const md = await r.markdown.site(source);
    return md.degraded ? undefined : md.html;
  });
  const noindex = visible.tree.site.visibility !== 'public' || page.noIndex === true;
  const description = typeof page.description === 'string' && page.description !== '' ? page.description : undefined;
  const title = String(page.title);
  const neighbours = pageNeighbours(view.revision.pages, page.id, pageHref);
  const translated = languages(String(page.path));
  const content: PageContent = {
    title,
    description,
    noindex,
    bodyHtml: dropRepeatedTitle(
      body.degraded && isHidden ? degradedWithoutHiddenLinks(bodyHtml, isHidden) : bodyHtml,
      title,
    ),
    pages: view.revision.pages,
    currentPageId: page.id,
    pageHref,
    headings: body.headings ?? [],
    ...neighbours,
    updated: view.revision.createdAt instanceof Date ? view.revision.createdAt : undefined,
    canonical: r.canonicalBase + pageHref(page).slice(r.base.length),
    alternates: translated.alternates,
  };
  const html = renderPage(frameFor(translated.links), content);
  return integrationBlocks.dynamic ? { kind: 'html', html, noindex, dynamic: true } : { kind: 'html', html, noindex };
}

/** Encodes each segment of a page path for a URL. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
