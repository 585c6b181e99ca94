import { escapeHtml as esc, safeHttpUrl, safeImageUrl } from './safe';
import { contentKitText, type CkNode } from './text';

/**
 * ContentKit (GitBook's UI description for integration blocks) → HTML, for the published site and
 * the editor alike. The element tree comes from an integration's script and is untrusted: every
 * string is escaped, class names come from fixed lists, links/images/frames take only the schemes
 * safe.ts allows, and nothing is written as a `style` attribute (the site's CSP allows styles by
 * hash only: sizes are classes). `markdown` elements are the one way to HTML, through the caller's
 * sanitizing renderer. Unknown elements degrade to their text; depth and size are bounded.
 */

/** How to render. */
export interface ContentKitRenderOptions {
  /** Sanitized HTML of a `markdown` element's text (undefined: the text as a paragraph). */
  markdown?: (source: string) => string | undefined;
  /** The block's state, for `{ $state: "key" }` bindings and inputs' values. */
  state?: Record<string, unknown>;
  /**
   * Interactive (the editor): buttons keep their action in `data-ck-action` (JSON) and inputs their
   * state key in `data-ck-state`, for the host to wire. Otherwise (a published page without a
   * script for it) only URL-opening buttons act (as links) and inputs are disabled.
   */
  interactive?: boolean;
  /** Whether webframes become sandboxed iframes (default true); false: a link to their source. */
  frames?: boolean;
}

const MAX_DEPTH = 32;
const MAX_NODES = 4000;
const ICONS = new Set(['close', 'edit', 'github', 'gitlab', 'maximize', 'email', 'settings', 'search', 'delete']);
const RATIOS: [number, string][] = [
  [1, '1x1'],
  [4 / 3, '4x3'],
  [3 / 2, '3x2'],
  [16 / 9, '16x9'],
  [2, '2x1'],
  [21 / 9, '21x9'],
  [3 / 4, '3x4'],
  [9 / 16, '9x16'],
];

interface Ctx extends ContentKitRenderOptions {
  nodes: number;
}

const isNode = (v: unknown): v is CkNode => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const oneOf = <T extends string>(v: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(v as T) ? (v as T) : fallback;

/** The aspect-ratio class nearest to `ratio` (width / height). */
function ratioClass(ratio: unknown): string {
  const r = typeof ratio === 'number' && Number.isFinite(ratio) && ratio > 0 ? ratio : 16 / 9;
  let best = RATIOS[0]!;
  for (const c of RATIOS) if (Math.abs(Math.log(c[0] / r)) < Math.abs(Math.log(best[0] / r))) best = c;
  return `ck-ar-${best[1]}`;
}

/** A string, or the state value a `{ $state }` binding names. */
function bound(v: unknown, ctx: Ctx): string {
  if (isNode(v) && typeof v.$state === 'string') return str(ctx.state?.[v.$state]);
  return str(v);
}

/** The URL of a link target: a string or a ContentKitURL `{host, pathname, query}`. */
function targetUrl(url: unknown, ctx: Ctx): string | undefined {
  if (!isNode(url)) return safeHttpUrl(url);
  const host = str(url.host);
  if (!/^[a-z0-9.-]+(:\d+)?$/i.test(host)) return undefined;
  const query = isNode(url.query)
    ? Object.entries(url.query)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(bound(v, ctx))}`)
        .join('&')
    : '';
  const path = str(url.pathname).startsWith('/') ? str(url.pathname) : `/${str(url.pathname)}`;
  return safeHttpUrl(`https://${host}${path}${query ? `?${query}` : ''}`);
}

const link = (href: string, inner: string, cls: string) =>
  `<a class="${cls}" href="${esc(href)}" target="_blank" rel="noopener noreferrer nofollow">${inner}</a>`;

/** Inline content: strings, text runs, links, images. */
function inline(v: unknown, ctx: Ctx, depth: number): string {
  if (typeof v === 'string') return esc(v);
  if (Array.isArray(v)) return v.map((c) => inline(c, ctx, depth)).join('');
  if (!isNode(v) || ++ctx.nodes > MAX_NODES || depth > MAX_DEPTH) return '';
  switch (v.type) {
    case 'text': {
      const inner = inline(v.children, ctx, depth + 1);
      const tag = { bold: 'strong', italic: 'em', code: 'code', strikethrough: 's' }[str(v.style)];
      return tag ? `<${tag}>${inner}</${tag}>` : inner;
    }
    case 'link': {
      const href = isNode(v.target) ? targetUrl(v.target.url, ctx) : undefined;
      const inner = inline(v.children, ctx, depth + 1);
      return href ? link(href, inner, 'ck-link') : inner;
    }
    case 'image':
      return image(v, 'ck-inline-image');
    default:
      return esc(contentKitText(v));
  }
}

function image(v: CkNode, cls: string): string {
  const src = isNode(v.source) ? safeImageUrl(v.source.url) : undefined;
  return src
    ? `<img class="${cls} ${ratioClass(v.aspectRatio)}" src="${esc(src)}" alt="" loading="lazy" referrerpolicy="no-referrer">`
    : '';
}

function children(list: unknown, ctx: Ctx, depth: number): string {
  return Array.isArray(list) ? list.map((c) => element(c, ctx, depth + 1)).join('') : '';
}

function button(v: CkNode, ctx: Ctx): string {
  const style = oneOf(v.style, ['primary', 'secondary', 'danger'] as const, 'secondary');
  const cls = `ck-button ck-button-${style}`;
  const icon =
    typeof v.icon === 'string' && ICONS.has(v.icon) ? `<span class="ck-icon" data-icon="${v.icon}"></span>` : '';
  const label = icon + esc(str(v.label));
  const title = v.tooltip ? ` title="${esc(str(v.tooltip))}"` : '';
  const action = isNode(v.onPress) ? v.onPress : undefined;
  if (action?.action === '@ui.url.open' && v.disabled !== true) {
    const href = safeHttpUrl(action.url);
    if (href) return link(href, label, cls);
  }
  if (ctx.interactive && action && v.disabled !== true)
    return `<button type="button" class="${cls}"${title} data-ck-action="${esc(JSON.stringify(action))}">${label}</button>`;
  return `<button type="button" class="${cls}"${title} disabled>${label}</button>`;
}

/** Attributes of a form control: its state key when interactive, else disabled. */
function control(v: CkNode, ctx: Ctx): string {
  const key = str(v.state);
  return ctx.interactive && key && v.disabled !== true ? ` data-ck-state="${esc(key)}"` : ' disabled';
}

function textInput(v: CkNode, ctx: Ctx): string {
  const state = str(v.state);
  const value = state && ctx.state && state in ctx.state ? str(ctx.state[state]) : str(v.initialValue);
  const placeholder = v.placeholder ? ` placeholder="${esc(str(v.placeholder))}"` : '';
  if (v.multiline === true)
    return `<textarea class="ck-textinput"${placeholder}${control(v, ctx)}>${esc(value)}</textarea>`;
  const type = oneOf(v.inputType, ['text', 'password', 'email'] as const, 'text');
  return `<input class="ck-textinput" type="${type}" value="${esc(value)}"${placeholder}${control(v, ctx)}>`;
}

function select(v: CkNode, ctx: Ctx): string {
  const chosen = new Set([ctx.state?.[str(v.state)] ?? v.initialValue].flat().map(str));
  const options = Array.isArray(v.options)
    ? v.options
        .filter(isNode)
        .slice(0, 500)
        .map(
          (o) =>
            `<option value="${esc(str(o.id))}"${chosen.has(str(o.id)) ? ' selected' : ''}>${esc(str(o.label))}</option>`,
        )
        .join('')
    : '';
  const placeholder = v.placeholder ? `<option value="">${esc(str(v.placeholder))}</option>` : '';
  return `<select class="ck-select"${v.multiple === true ? ' multiple' : ''}${control(v, ctx)}>${placeholder}${options}</select>`;
}

function toggle(v: CkNode, ctx: Ctx, kind: 'switch' | 'checkbox' | 'radio'): string {
  const key = str(v.state);
  const current = key ? ctx.state?.[key] : undefined;
  const checked =
    kind === 'switch' ? (current ?? v.initialValue) === true : current !== undefined && str(current) === str(v.value);
  const type = kind === 'radio' ? 'radio' : 'checkbox';
  const role = kind === 'switch' ? ' role="switch"' : '';
  const value = kind === 'switch' ? '' : ` value="${esc(str(v.value))}"`;
  const name = kind === 'radio' && key ? ` name="ck-${esc(key)}"` : '';
  return `<input class="ck-${kind}" type="${type}"${role}${name}${value}${checked ? ' checked' : ''}${control(v, ctx)}>`;
}

function codeblock(v: CkNode, ctx: Ctx, depth: number): string {
  const syntax = str(v.syntax)
    .replace(/[^\w+#.-]/g, '')
    .slice(0, 40);
  const header = children(v.header, ctx, depth);
  const footer = children(v.footer, ctx, depth);
  const buttons = Array.isArray(v.buttons)
    ? v.buttons
        .filter(isNode)
        .map((b) => button(b, ctx))
        .join('')
    : '';
  const code = `<pre class="ck-pre"><code${syntax ? ` class="language-${syntax}"` : ''}>${esc(bound(v.content, ctx))}</code></pre>`;
  const head = header || buttons ? `<div class="ck-codeblock-head">${header}${buttons}</div>` : '';
  return `<div class="ck-codeblock">${head}${code}${footer ? `<div class="ck-codeblock-foot">${footer}</div>` : ''}</div>`;
}

function webframe(v: CkNode, ctx: Ctx): string {
  const src = isNode(v.source) ? safeHttpUrl(v.source.url) : undefined;
  if (!src) return '';
  if (ctx.frames === false) return `<p class="ck-webframe-link">${link(src, esc(src), 'ck-link')}</p>`;
  // No allow-same-origin: the frame's origin is opaque, whatever it loads (no cookies, no storage, no parent access).
  return (
    `<div class="ck-webframe ${ratioClass(v.aspectRatio)}"><iframe src="${esc(src)}" sandbox="allow-scripts" ` +
    `referrerpolicy="no-referrer" loading="lazy" allow="" title="Embedded content"></iframe></div>`
  );
}

function card(v: CkNode, ctx: Ctx, depth: number): string {
  const icon = isNode(v.icon) && v.icon.type === 'image' ? image(v.icon, 'ck-card-icon') : '';
  const title = v.title ? `<span class="ck-card-title">${esc(str(v.title))}</span>` : '';
  const hint = v.hint !== undefined ? `<span class="ck-card-hint">${inline(v.hint, ctx, depth + 1)}</span>` : '';
  const head = icon || title || hint ? `<div class="ck-card-head">${icon}<span>${title}${hint}</span></div>` : '';
  const buttons = Array.isArray(v.buttons)
    ? v.buttons
        .filter(isNode)
        .map((b) => button(b, ctx))
        .join('')
    : '';
  const body = children(v.children, ctx, depth);
  const inner = `${head}${buttons ? `<div class="ck-card-buttons">${buttons}</div>` : ''}${body ? `<div class="ck-card-body">${body}</div>` : ''}`;
  const open = isNode(v.onPress) && v.onPress.action === '@ui.url.open' ? safeHttpUrl(v.onPress.url) : undefined;
  return open && !buttons ? link(open, inner, 'ck-card') : `<div class="ck-card">${inner}</div>`;
}

function element(v: unknown, ctx: Ctx, depth: number): string {
  if (typeof v === 'string') return `<p class="ck-text">${esc(v)}</p>`;
  if (!isNode(v) || ++ctx.nodes > MAX_NODES) return '';
  if (depth > MAX_DEPTH) return `<p class="ck-text">${esc(contentKitText(v))}</p>`;
  const align = () => oneOf(v.align, ['start', 'center', 'end'] as const, 'start');
  switch (v.type) {
    case 'block':
    case 'configuration':
    case 'step':
      return `<div class="ck-${v.type}">${children(v.children, ctx, depth)}</div>`;
    case 'modal': {
      const title = v.title ? `<p class="ck-modal-title">${esc(str(v.title))}</p>` : '';
      return `<div class="ck-modal">${title}${children(v.children, ctx, depth)}</div>`;
    }
    case 'stepper': {
      const steps = Array.isArray(v.children) ? v.children.filter(isNode) : [];
      const active = steps.find((s) => s.id === v.activeStep) ?? steps[0];
      return `<div class="ck-stepper">${active ? element(active, ctx, depth + 1) : ''}</div>`;
    }
    case 'box': {
      const grow = typeof v.grow === 'number' && v.grow > 0 ? ' ck-grow' : '';
      return `<div class="ck-box${grow}">${children(v.children, ctx, depth)}</div>`;
    }
    case 'hstack':
    case 'vstack':
      return `<div class="ck-${v.type} ck-align-${align()}">${children(v.children, ctx, depth)}</div>`;
    case 'divider':
      return `<hr class="ck-divider ck-divider-${oneOf(v.size, ['small', 'medium', 'large'] as const, 'medium')}">`;
    case 'text':
    case 'link':
      return `<p class="ck-text">${inline(v, ctx, depth)}</p>`;
    case 'markdown': {
      const source = bound(v.content, ctx);
      const html = ctx.markdown?.(source);
      return `<div class="ck-markdown">${html ?? `<p>${esc(source)}</p>`}</div>`;
    }
    case 'image':
      return image(v, 'ck-image');
    case 'button':
      return button(v, ctx);
    case 'textinput':
      return textInput(v, ctx);
    case 'select':
      return select(v, ctx);
    case 'switch':
    case 'checkbox':
    case 'radio':
      return toggle(v, ctx, v.type);
    case 'input': {
      const label = `<span class="ck-input-label">${esc(str(v.label))}</span>`;
      const hint = v.hint !== undefined ? `<span class="ck-input-hint">${inline(v.hint, ctx, depth + 1)}</span>` : '';
      return `<div class="ck-input">${label}${element(v.element, ctx, depth + 1)}${hint}</div>`;
    }
    case 'codeblock':
      return codeblock(v, ctx, depth);
    case 'webframe':
      return webframe(v, ctx);
    case 'card':
      return card(v, ctx, depth);
    case 'hint':
      return `<div class="ck-hint" role="note">${inline(v.children, ctx, depth + 1)}</div>`;
    default: {
      const text = contentKitText(v);
      return text ? `<p class="ck-text ck-unknown">${esc(text)}</p>` : '';
    }
  }
}

/** The HTML of a ContentKit element (a `block`, usually), wrapped in `<div class="folio-ck">`. */
export function renderContentKit(root: unknown, options: ContentKitRenderOptions = {}): string {
  const ctx: Ctx = { ...options, nodes: 0 };
  return `<div class="folio-ck">${element(root, ctx, 0)}</div>`;
}
