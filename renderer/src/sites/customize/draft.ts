import type {
  CustomizationChange,
  DefaultTheme,
  HeaderLinkItem,
  HeaderSubLink,
  LinkTarget,
  SiteCustomization,
} from '../settings-api';

/**
 * The customization form's state (what the inputs show) and its two conversions: from the
 * server's customization, and back to the change the API takes. Pure, so the rules are unit-tested
 * (test/unit/sites-customize-draft.test.ts) and the form stays a view of them.
 */

export type LinkStyle = 'link' | 'button-primary' | 'button-secondary';

/** A header link as edited: `key` is local (stable across edits and saves, for the keyed list). */
export interface LinkDraft {
  key: string;
  title: string;
  /** The URL of a `url` link ('' for a menu or another kind of target). */
  url: string;
  style: LinkStyle;
  /** Kept as they are: menus are edited elsewhere (the API round-trips them). */
  links: HeaderSubLink[];
  /** A target that is not a URL (a GitBook page or space reference), kept unless a URL is entered. */
  otherTarget: LinkTarget;
}

export type FaviconKind = 'none' | 'emoji' | 'image';

export interface CustomizationDraft {
  primaryLight: string;
  primaryDark: string;
  logoLight: string;
  logoDark: string;
  faviconKind: FaviconKind;
  faviconEmoji: string;
  faviconLight: string;
  faviconDark: string;
  font: string;
  links: LinkDraft[];
  pagination: boolean;
  theme: DefaultTheme;
}

const HEX = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** Whether `value` is a colour the API takes (`#rgb` or `#rrggbb`). */
export function isHexColor(value: string): boolean {
  return HEX.test(value);
}

/** `#rgb` as `#rrggbb` (what <input type=color> needs), lower case; other input unchanged. */
export function longHex(value: string): string {
  if (!isHexColor(value)) return value;
  const hex = value.slice(1).toLowerCase();
  return hex.length === 3 ? `#${[...hex].map((c) => c + c).join('')}` : `#${hex}`;
}

const fontName = (font: SiteCustomization['styling']['font'] | undefined): string =>
  typeof font === 'string' ? font : (font?.fontFamily ?? '');

const THEMES: readonly DefaultTheme[] = ['light', 'dark', 'system'];

let lastKey = 0;
/** A new local key for a header link row. */
export function newLinkKey(): string {
  return `link-${++lastKey}`;
}

/** An empty header link row. */
export function newLink(): LinkDraft {
  return { key: newLinkKey(), title: '', url: '', style: 'link', links: [], otherTarget: null };
}

/**
 * The form's state for a customization. `keep` (the rows shown before a save) gives the rows their
 * keys back, so inputs keep focus and what is typed when the saved answer comes in.
 */
export function draftOf(c: SiteCustomization, keep: readonly LinkDraft[] = []): CustomizationDraft {
  const favicon = c.favicon ?? {};
  const logo = c.header?.logo;
  const theme = c.themes?.default;
  return {
    primaryLight: c.styling?.primaryColor?.light ?? '',
    primaryDark: c.styling?.primaryColor?.dark ?? '',
    logoLight: logo?.light ?? '',
    logoDark: logo && logo.dark !== logo.light ? logo.dark : '',
    // The published site shows an image favicon over an emoji (sync-server/sites/customization.ts).
    faviconKind: favicon.icon ? 'image' : favicon.emoji ? 'emoji' : 'none',
    faviconEmoji: favicon.emoji ?? '',
    faviconLight: favicon.icon?.light ?? '',
    faviconDark: favicon.icon && favicon.icon.dark !== favicon.icon.light ? favicon.icon.dark : '',
    font: fontName(c.styling?.font),
    links: (c.header?.links ?? []).map((item, i) => linkDraftOf(item, keep[i]?.key ?? newLinkKey())),
    pagination: c.pagination?.enabled !== false,
    theme: theme && THEMES.includes(theme) ? theme : 'system',
  };
}

function linkDraftOf(item: HeaderLinkItem, key: string): LinkDraft {
  const to = item.to;
  const isUrl = to !== null && to !== undefined && to.kind === 'url' && typeof to.url === 'string';
  return {
    key,
    title: item.title,
    url: isUrl ? (to.url as string) : '',
    style: item.style === 'button-primary' || item.style === 'button-secondary' ? item.style : 'link',
    links: item.links ?? [],
    otherTarget: isUrl ? null : (to ?? null),
  };
}

/** Whether two drafts show the same customization (row keys aside). */
export function sameDraft(a: CustomizationDraft, b: CustomizationDraft): boolean {
  const plain = (d: CustomizationDraft) => JSON.stringify({ ...d, links: d.links.map(({ key: _, ...l }) => l) });
  return plain(a) === plain(b);
}

/** What is wrong with the primary colour fields (undefined: fine). */
export function colorProblem(value: string): string | undefined {
  return isHexColor(value.trim()) ? undefined : 'Enter a hex colour such as #3366ff';
}

/**
 * The API change a draft stands for, or the first problem that keeps it from being saved. Only
 * what the API would refuse for a reason it cannot say well, or could not undo, is checked here
 * (colours, empty titles, removing a logo or favicon); URLs are the API's to check, and its error
 * is shown as it says it.
 */
export function changeOf(
  draft: CustomizationDraft,
  stored: SiteCustomization,
): { change: CustomizationChange } | { problem: string } {
  const light = draft.primaryLight.trim();
  const dark = draft.primaryDark.trim() || light;
  if (!isHexColor(light)) return { problem: `Primary colour: ${colorProblem(light)!.toLowerCase()}` };
  if (!isHexColor(dark)) return { problem: `Primary colour (dark theme): ${colorProblem(dark)!.toLowerCase()}` };

  const logoLight = draft.logoLight.trim();
  const logoDark = draft.logoDark.trim() || logoLight;
  // The API merges objects key by key and refuses null: a logo once set can be replaced, not removed.
  if (!logoLight && stored.header?.logo)
    return { problem: 'Logo: the server keeps a logo once set; enter another image URL to replace it' };
  if (!logoLight && draft.logoDark.trim()) return { problem: 'Logo: enter the light-theme logo first' };

  const favicon = faviconChange(draft, stored);
  if ('problem' in favicon) return favicon;

  const links: HeaderLinkItem[] = [];
  for (const [i, link] of draft.links.entries()) {
    const title = link.title.trim();
    if (!title) return { problem: `Header link ${i + 1}: enter its title` };
    const url = link.url.trim();
    links.push({
      title,
      to: url ? { kind: 'url', url } : link.otherTarget,
      style: link.style,
      links: link.links,
    });
  }

  const styling: Record<string, unknown> = { primaryColor: { light, dark } };
  const font = draft.font.trim();
  // An unchanged font is not sent: GitBook's font objects ({fontFamily, …}) keep their other fields.
  if (font && font !== fontName(stored.styling?.font)) styling.font = font;
  return {
    change: {
      styling,
      header: { links, ...(logoLight ? { logo: { light: logoLight, dark: logoDark } } : {}) },
      ...(favicon.favicon ? { favicon: favicon.favicon } : {}),
      themes: { default: draft.theme },
      pagination: { enabled: draft.pagination },
    },
  };
}

function faviconChange(
  draft: CustomizationDraft,
  stored: SiteCustomization,
): { favicon?: Record<string, unknown> } | { problem: string } {
  const had = stored.favicon ?? {};
  // As with the logo, the stored favicon merges with what is sent: an image stays until replaced.
  if (draft.faviconKind !== 'image' && had.icon)
    return { problem: 'Favicon: the server keeps an image favicon once set; enter another image URL to replace it' };
  if (draft.faviconKind === 'none') {
    if (had.emoji) return { problem: 'Favicon: the server keeps a favicon once set; choose another emoji instead' };
    return {};
  }
  if (draft.faviconKind === 'emoji') {
    const emoji = draft.faviconEmoji.trim();
    if (!emoji) return { problem: 'Favicon: enter an emoji' };
    return { favicon: { emoji } };
  }
  const light = draft.faviconLight.trim();
  if (!light) return { problem: 'Favicon: enter the image URL' };
  return { favicon: { icon: { light, dark: draft.faviconDark.trim() || light } } };
}

/** The draft with one header link changed. */
export function withLink(draft: CustomizationDraft, key: string, change: Partial<LinkDraft>): CustomizationDraft {
  return { ...draft, links: draft.links.map((l) => (l.key === key ? { ...l, ...change } : l)) };
}

/** The draft with a header link moved by `by` places (kept within the list). */
export function movedLink(draft: CustomizationDraft, key: string, by: -1 | 1): CustomizationDraft {
  const links = [...draft.links];
  const from = links.findIndex((l) => l.key === key);
  const to = from + by;
  if (from < 0 || to < 0 || to >= links.length) return draft;
  const [moved] = links.splice(from, 1);
  links.splice(to, 0, moved!);
  return { ...draft, links };
}
