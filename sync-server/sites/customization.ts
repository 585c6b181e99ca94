/**
 * Site customization (GitBook's SiteCustomizationSettings): what an owner
 * sets, the defaults every response carries, checks of the fields Folio
 * renders, and the "look" a published page applies (primary color, title,
 * logo, favicon, font, header links, pagination). Other fields are kept and
 * returned as sent so GitBook clients round-trip them, but do not change the
 * rendered site.
 */

type Json = Record<string, unknown>;

const THEMED_COLOR = (light: string, dark: string) => ({ light, dark });

/** Defaults of every field GitBook's schema requires; a stored customization is merged over them. */
export const DEFAULT_CUSTOMIZATION: Json = {
  styling: {
    theme: 'clean',
    primaryColor: THEMED_COLOR('#2b5fce', '#7aa7ff'),
    infoColor: THEMED_COLOR('#2b5fce', '#7aa7ff'),
    successColor: THEMED_COLOR('#1a7f37', '#56d364'),
    warningColor: THEMED_COLOR('#9a6700', '#e3b341'),
    dangerColor: THEMED_COLOR('#cf222e', '#ff7b72'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: false },
  trademark: { enabled: false },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { items: [] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: false },
};

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `patch` over `base`: objects merge key by key, anything else (arrays,
 * strings, null) replaces. A full GitBook PUT body therefore replaces
 * everything it names, and a partial one changes only what it names.
 */
export function mergeCustomization(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const before = out[key];
    out[key] = isObject(value) && isObject(before) ? mergeCustomization(before, value) : value;
  }
  return out;
}

const COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
/** Images and links a published page shows: absolute web URLs only (no `javascript:`, no `data:` documents). */
const WEB_URL = /^https?:\/\/[^\s"'<>\\]+$/i;
const LINK_URL = /^(https?:\/\/|mailto:)[^\s"'<>\\]+$/i;

function colorProblem(path: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) return `Invalid ${path}: expected { light, dark } colors`;
  for (const mode of ['light', 'dark'])
    if (typeof v[mode] !== 'string' || !COLOR.test(v[mode]))
      return `Invalid ${path}.${mode}: expected a hex color such as #3366ff`;
  return undefined;
}

function urlProblem(path: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) return `Invalid ${path}: expected { light, dark } URLs`;
  for (const mode of ['light', 'dark']) {
    const url = v[mode];
    if (typeof url !== 'string' || url.length > 2048 || !WEB_URL.test(url))
      return `Invalid ${path}.${mode}: expected an http(s) URL`;
  }
  return undefined;
}

function refProblem(path: string, to: unknown): string | undefined {
  if (to === null || to === undefined) return undefined;
  if (!isObject(to) || typeof to.kind !== 'string') return `Invalid ${path}: expected a content reference`;
  if (to.kind === 'url' && (typeof to.url !== 'string' || !LINK_URL.test(to.url)))
    return `Invalid ${path}.url: expected an http(s) or mailto URL`;
  return undefined;
}

function headerLinksProblem(links: unknown): string | undefined {
  if (links === undefined) return undefined;
  if (!Array.isArray(links)) return 'Invalid header.links: expected an array';
  for (const [i, item] of links.entries()) {
    const at = `header.links[${i}]`;
    if (!isObject(item) || typeof item.title !== 'string' || item.title.length > 128)
      return `Invalid ${at}: expected an item with a title`;
    const problem = refProblem(`${at}.to`, item.to);
    if (problem) return problem;
    if (item.links !== undefined && !Array.isArray(item.links)) return `Invalid ${at}.links: expected an array`;
    for (const [j, sub] of ((item.links as unknown[]) ?? []).entries()) {
      if (!isObject(sub) || typeof sub.title !== 'string' || sub.title.length > 64)
        return `Invalid ${at}.links[${j}]: expected a link with a title of at most 64 characters`;
      const p = refProblem(`${at}.links[${j}].to`, sub.to);
      if (p) return p;
    }
  }
  return undefined;
}

/** What is wrong with a customization body (in the fields Folio renders), or undefined when it is fine. */
export function customizationProblem(body: Json): string | undefined {
  const styling = body.styling;
  if (styling !== undefined && !isObject(styling)) return 'Invalid styling: expected an object';
  const header = body.header;
  if (header !== undefined && !isObject(header)) return 'Invalid header: expected an object';
  if (body.title !== undefined && (typeof body.title !== 'string' || body.title.length < 2 || body.title.length > 128))
    return 'Invalid title: expected 2 to 128 characters';
  for (const key of ['primaryColor', 'infoColor', 'successColor', 'warningColor', 'dangerColor']) {
    const p = colorProblem(`styling.${key}`, styling?.[key]);
    if (p) return p;
  }
  const font = styling?.font;
  if (
    font !== undefined &&
    !(typeof font === 'string' && /^[A-Za-z0-9 ]{1,64}$/.test(font)) &&
    !(isObject(font) && typeof font.fontFamily === 'string')
  )
    return 'Invalid styling.font: expected a font name or a font definition';
  const favicon = body.favicon;
  if (favicon !== undefined) {
    if (!isObject(favicon)) return 'Invalid favicon: expected an object';
    if ('icon' in favicon) {
      const p = urlProblem('favicon.icon', favicon.icon);
      if (p) return p;
    } else if ('emoji' in favicon) {
      if (typeof favicon.emoji !== 'string' || favicon.emoji === '' || favicon.emoji.length > 50)
        return 'Invalid favicon.emoji: expected an emoji';
    } else if (Object.keys(favicon).length > 0) return 'Invalid favicon: expected { icon } or { emoji }';
  }
  return urlProblem('header.logo', header?.logo) ?? headerLinksProblem(header?.links);
}

/** A link of the header as a published page shows it (only URL references become links). */
export interface HeaderLink {
  title: string;
  href?: string;
  style: 'link' | 'button-primary' | 'button-secondary';
  links: { title: string; href: string }[];
}

/** What a published page takes from the customization. */
export interface SiteLook {
  title?: string;
  primaryColor?: { light: string; dark: string };
  font?: string;
  logo?: { light: string; dark: string };
  favicon?: { light: string; dark: string } | { emoji: string };
  headerLinks: HeaderLink[];
  pagination: boolean;
  /** The theme a reader sees first (`themes.default`); undefined: the reader's system setting. */
  theme?: 'light' | 'dark';
  /** Whether readers may switch the theme (`themes.toggeable`, GitBook's spelling). */
  themeToggle: boolean;
}

const hrefOf = (to: unknown): string | undefined =>
  isObject(to) && to.kind === 'url' && typeof to.url === 'string' && LINK_URL.test(to.url) ? to.url : undefined;

/** The look of a site from its stored customization (what its owner set; defaults change nothing). */
export function siteLookOf(stored: Json | null | undefined): SiteLook {
  const s = stored ?? {};
  const styling = isObject(s.styling) ? s.styling : {};
  const header = isObject(s.header) ? s.header : {};
  const favicon = isObject(s.favicon) ? s.favicon : {};
  const themes = isObject(s.themes) ? s.themes : {};
  const font = styling.font;
  const look: SiteLook = {
    headerLinks: [],
    pagination: !(isObject(s.pagination) && s.pagination.enabled === false),
    themeToggle: themes.toggeable !== false,
  };
  if (themes.default === 'light' || themes.default === 'dark') look.theme = themes.default;
  if (typeof s.title === 'string') look.title = s.title;
  if (!colorProblem('', styling.primaryColor) && styling.primaryColor)
    look.primaryColor = styling.primaryColor as SiteLook['primaryColor'];
  if (typeof font === 'string') look.font = font;
  else if (isObject(font) && typeof font.fontFamily === 'string') look.font = font.fontFamily;
  if (header.logo && !urlProblem('', header.logo)) look.logo = header.logo as SiteLook['logo'];
  if (favicon.icon && !urlProblem('', favicon.icon)) look.favicon = favicon.icon as { light: string; dark: string };
  else if (typeof favicon.emoji === 'string' && favicon.emoji !== '') look.favicon = { emoji: favicon.emoji };
  if (Array.isArray(header.links))
    for (const item of header.links) {
      if (!isObject(item) || typeof item.title !== 'string') continue;
      const links = (Array.isArray(item.links) ? item.links : [])
        .map((l: unknown) => (isObject(l) && typeof l.title === 'string' ? { title: l.title, href: hrefOf(l.to) } : {}))
        .filter((l): l is { title: string; href: string } => typeof l.title === 'string' && l.href !== undefined);
      const style = item.style === 'button-primary' || item.style === 'button-secondary' ? item.style : 'link';
      const href = hrefOf(item.to);
      if (href || links.length) look.headerLinks.push({ title: item.title, href, style, links });
    }
  return look;
}
