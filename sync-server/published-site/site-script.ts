import { createHash } from 'node:crypto';

/**
 * The published site's scripts. Pages are complete without them (navigation,
 * content, anchors); they only enhance: the search dialog (`/`, Ctrl/Cmd+K),
 * the theme toggle, the navigation drawer, closing header menus, copy buttons on code, tabs, and
 * the table of contents following the scroll. Served as one static file
 * (`<site>/~folio/site.js`, cached by the browser), plus the few bytes that
 * must run before the first paint (the chosen theme) inline, allowed by hash.
 * The code reads no named globals: content ids cannot clobber anything.
 */

/**
 * Applies the reader's chosen theme before the page paints (inline in <head>), unless the site fixes
 * its theme (`data-theme-fixed`: the customization turned the toggle off).
 */
export const THEME_BOOT =
  "var r=document.documentElement;try{var t=localStorage.getItem('folio-theme');if(!r.hasAttribute('data-theme-fixed')&&(t==='dark'||t==='light'))r.dataset.theme=t}catch(e){}r.classList.add('js')";

export const THEME_BOOT_HASH = `'sha256-${createHash('sha256').update(THEME_BOOT).digest('base64')}'`;

export const SITE_SCRIPT = `(() => {
const d = document, root = d.documentElement, body = d.body;
const $ = (s, el = d) => el.querySelector(s), $$ = (s, el = d) => [...el.querySelectorAll(s)];
const make = (tag, props = {}, ...kids) => { const el = Object.assign(d.createElement(tag), props); el.append(...kids); return el; };

// Theme toggle: flips the theme in effect and remembers the choice.
const dark = () => root.dataset.theme ? root.dataset.theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
const themeButton = $('[data-testid=theme-toggle]');
const labelTheme = () => themeButton.setAttribute('aria-label', dark() ? 'Switch to light theme' : 'Switch to dark theme');
if (themeButton) {
  labelTheme();
  themeButton.addEventListener('click', () => {
    root.dataset.theme = dark() ? 'light' : 'dark';
    try { localStorage.setItem('folio-theme', root.dataset.theme); } catch {}
    labelTheme();
  });
}

// Drawer (narrow screens): the menu link opens it without changing the URL.
const menu = $('[data-testid=site-menu]'), sidebar = $('.sidebar');
const drawer = (open) => { body.classList.toggle('drawer-open', open); menu?.setAttribute('aria-expanded', String(open)); if (open) ($('nav a[aria-current]', sidebar) || $('nav a', sidebar))?.focus(); };
menu?.addEventListener('click', (e) => { e.preventDefault(); drawer(!body.classList.contains('drawer-open')); });
$('.close', sidebar)?.addEventListener('click', (e) => { e.preventDefault(); drawer(false); menu?.focus(); });
d.addEventListener('keydown', (e) => { if (e.key === 'Escape' && body.classList.contains('drawer-open')) { drawer(false); menu?.focus(); } });
d.addEventListener('click', (e) => { if (body.classList.contains('drawer-open') && !sidebar.contains(e.target) && !menu.contains(e.target)) drawer(false); });

// Header menus (<details>: header links, languages) open without scripts; this closes them as menus
// close: on Escape (focus back on the menu's button) or a click anywhere else.
const menus = $$('header.top details');
d.addEventListener('click', (e) => { for (const m of menus) if (m.open && !m.contains(e.target)) m.open = false; });
d.addEventListener('keydown', (e) => {
  const open = e.key === 'Escape' && menus.find((m) => m.open);
  if (open) { open.open = false; $('summary', open).focus(); }
});

// Copy buttons on code blocks.
for (const pre of $$('article pre')) {
  const wrap = make('div', { className: 'codewrap' });
  pre.replaceWith(wrap);
  const button = make('button', { type: 'button', className: 'copy', textContent: 'Copy' });
  button.setAttribute('aria-label', 'Copy code');
  button.dataset.testid = 'copy-code';
  button.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(pre.innerText.replace(/\\n$/, '')); button.textContent = 'Copied'; }
    catch { button.textContent = 'Press Ctrl+C'; const r = d.createRange(); r.selectNodeContents(pre); getSelection().removeAllRanges(); getSelection().addRange(r); }
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
  wrap.append(pre, button);
}

// Tabs: stacked sections with titles become a tab list (arrow keys move between tabs).
for (const [n, box] of $$('article .tabs').entries()) {
  const tabs = $$(':scope > .tab', box);
  if (tabs.length === 0) continue;
  const list = make('div', { className: 'tablist' });
  list.setAttribute('role', 'tablist');
  const buttons = tabs.map((tab, i) => {
    const title = $(':scope > .tab-title', tab)?.textContent || 'Tab ' + (i + 1);
    const b = make('button', { type: 'button', id: 'folio-tab-' + n + '-' + i, textContent: title });
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-controls', 'folio-panel-' + n + '-' + i);
    tab.id = 'folio-panel-' + n + '-' + i;
    tab.setAttribute('role', 'tabpanel');
    tab.setAttribute('aria-labelledby', b.id);
    return b;
  });
  const select = (i, focus) => buttons.forEach((b, j) => {
    b.setAttribute('aria-selected', String(i === j)); b.tabIndex = i === j ? 0 : -1; tabs[j].hidden = i !== j;
    if (focus && i === j) b.focus();
  });
  buttons.forEach((b, i) => {
    b.addEventListener('click', () => select(i, false));
    b.addEventListener('keydown', (e) => {
      const to = e.key === 'ArrowRight' ? (i + 1) % buttons.length : e.key === 'ArrowLeft' ? (i - 1 + buttons.length) % buttons.length : -1;
      if (to >= 0) { e.preventDefault(); select(to, true); }
    });
  });
  list.append(...buttons);
  box.prepend(list);
  box.classList.add('tabbed');
  select(0, false);
}

// Table of contents: the section being read is marked.
const tocLinks = $$('.toc a');
if (tocLinks.length && 'IntersectionObserver' in window) {
  const byId = new Map(tocLinks.map((a) => [decodeURIComponent(a.hash.slice(1)), a]));
  const headings = [...byId.keys()].map((id) => d.getElementById(id)).filter(Boolean);
  const mark = () => {
    let current = headings[0];
    for (const h of headings) if (h.getBoundingClientRect().top < 120) current = h;
    for (const a of tocLinks) a.removeAttribute('aria-current');
    byId.get(current?.id)?.setAttribute('aria-current', 'location');
  };
  const io = new IntersectionObserver(mark, { rootMargin: '0px 0px -60% 0px' });
  headings.forEach((h) => io.observe(h));
  mark();
}

// Search: a keyboard-first dialog over the site's published spaces.
const searchUrl = body.dataset.search, searchButton = $('[data-testid=search-open]');
if (searchUrl && searchButton) {
  const input = make('input', { type: 'search', placeholder: 'Search…', autocomplete: 'off' });
  input.setAttribute('aria-label', 'Search the site');
  input.dataset.testid = 'search-input';
  const list = make('ul');
  list.setAttribute('role', 'listbox');
  list.id = 'folio-search-results';
  input.setAttribute('aria-controls', list.id);
  const status = make('p', { className: 'empty' });
  status.setAttribute('role', 'status');
  const dialog = make('dialog', { className: 'search' }, input, list, status);
  dialog.setAttribute('aria-label', 'Search');
  dialog.dataset.testid = 'search-dialog';
  body.append(dialog);
  let items = [], active = -1, timer, seq = 0;
  const terms = () => input.value.toLowerCase().split(/\\s+/).filter((t) => t.length > 1);
  const highlighted = (text) => {
    const ts = terms(); if (!ts.length) return [text];
    const re = new RegExp('(' + ts.map((t) => t.replace(/[.*+?^$()|[\\]\\\\{}]/g, '\\\\$&')).join('|') + ')', 'gi');
    return text.split(re).map((part, i) => (i % 2 ? make('mark', { textContent: part }) : part));
  };
  const setActive = (i) => {
    active = i;
    items.forEach((li, j) => li.setAttribute('aria-selected', String(i === j)));
    if (items[i]) { input.setAttribute('aria-activedescendant', items[i].id); items[i].scrollIntoView({ block: 'nearest' }); }
  };
  const show = (results) => {
    list.replaceChildren(...results.map((r, i) => {
      const a = make('a', { href: r.url }, make('span', {}, ...highlighted(r.title)), make('small', {}, ...(r.path ? [r.path + ' — '] : []), ...highlighted(r.snippet || '')));
      a.tabIndex = -1;
      a.dataset.testid = 'search-result';
      const li = make('li', { id: 'folio-result-' + i }, a);
      li.setAttribute('role', 'option');
      return li;
    }));
    items = [...list.children];
    status.textContent = input.value.trim() && !results.length ? 'No results for “' + input.value.trim() + '”' : '';
    setActive(results.length ? 0 : -1);
  };
  const search = async () => {
    const q = input.value.trim(), mine = ++seq;
    if (!q) return show([]);
    try {
      const res = await fetch(searchUrl + '?q=' + encodeURIComponent(q), { credentials: 'same-origin' });
      const data = await res.json();
      if (mine === seq) show(data.results || []);
    } catch { if (mine === seq) status.textContent = 'Search is unavailable right now.'; }
  };
  input.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(search, 120); });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && items.length) { e.preventDefault(); setActive((active + 1) % items.length); }
    else if (e.key === 'ArrowUp' && items.length) { e.preventDefault(); setActive((active - 1 + items.length) % items.length); }
    else if (e.key === 'Enter' && items[active]) { e.preventDefault(); dialog.close(); $('a', items[active]).click(); }
  });
  dialog.addEventListener('click', (e) => { if (e.target === dialog) dialog.close(); });
  const open = () => { if (!dialog.open) { dialog.showModal(); input.select(); } };
  searchButton.addEventListener('click', open);
  d.addEventListener('keydown', (e) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) || e.target.isContentEditable;
    if ((e.key === 'k' && (e.ctrlKey || e.metaKey)) || (e.key === '/' && !typing)) { e.preventDefault(); open(); }
  });
}
})();
`;
