import { CODE_BACKGROUND, codeThemeCss } from '../markdown/highlight-palette';
import { LANGUAGE_STYLE } from './language-switcher';
import { OPENAPI_STYLE } from './openapi-style';
import { CONTENTKIT_STYLE } from '../../shared/contentkit/style';

/**
 * The stylesheet of published pages, inline (one request per page, no flash
 * of unstyled content) and allowed by its hash. Layout, like GitBook's sites:
 * header, page tree on the left, the page, its table of contents on the
 * right; under 900 px the page tree becomes a drawer (opened by the menu
 * link: `:target` without JavaScript, a class with it) and the table of
 * contents is hidden. Light and dark themes follow `prefers-color-scheme`
 * unless the reader chose one (`data-theme` on <html>, set by the toggle).
 * Sides are logical (`inline-start`, not `left`): on a right-to-left page
 * (`dir="rtl"`, Arabic and Hebrew) the page tree, borders, indents and the
 * drawer mirror themselves, while code stays left to right.
 */

const LIGHT =
  `--bg:#fff;--bg2:#f6f7f9;--fg:#1b1f24;--fg2:#59616b;--line:#e3e6ea;--accent:#2b5fce;--accent-bg:#eaf0fc;--code:${CODE_BACKGROUND.light};` +
  '--info:#2b5fce;--success:#1a7f37;--warning:#9a6700;--danger:#cf222e';
const DARK =
  `--bg:#0f1115;--bg2:#171a21;--fg:#e6e8eb;--fg2:#a3abb6;--line:#2a2f38;--accent:#7aa7ff;--accent-bg:#1b2740;--code:${CODE_BACKGROUND.dark};` +
  '--info:#7aa7ff;--success:#56d364;--warning:#e3b341;--danger:#ff7b72;color-scheme:dark';
const AUTO_DARK = ':root:not([data-theme=light])';

export const STYLE =
  `:root{${LIGHT}}[data-theme=dark]{${DARK}}@media(prefers-color-scheme:dark){${AUTO_DARK}{${DARK}}}` +
  `*{box-sizing:border-box}html{scroll-padding-top:4.5rem}body{margin:0;font:16px/1.65 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);overflow-wrap:break-word}` +
  `a{color:var(--accent)}:focus-visible{outline:2px solid var(--accent);outline-offset:2px}` +
  `.skip{position:absolute;inset-inline-start:-999px}.skip:focus{inset-inline-start:1rem;top:.5rem;z-index:30;background:var(--bg);padding:.4rem .8rem}` +
  // Header
  `header.top{position:sticky;top:0;z-index:20;background:var(--bg);border-bottom:1px solid var(--line)}` +
  `.bar{display:flex;align-items:center;gap:1rem;max-width:90rem;margin:0 auto;padding:.6rem 1.25rem;min-height:3.75rem}` +
  `.site{font-weight:700;font-size:1.1rem;color:var(--fg);text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}` +
  `.menu{display:none;color:var(--fg);text-decoration:none;font-size:1.4rem;line-height:1;padding:.2rem .4rem;border-radius:.4rem}` +
  `nav.sections{flex:1;min-width:0;overflow-x:auto}nav.sections ul{display:flex;gap:1.25rem;list-style:none;margin:0;padding:0}` +
  `nav.sections li{white-space:nowrap}nav.sections a{text-decoration:none;color:var(--fg2);display:block;padding:.3rem 0}` +
  `nav.sections a[aria-current]{color:var(--fg);box-shadow:inset 0 -2px var(--accent)}` +
  `nav.sections .group{color:var(--fg2);font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;display:block;padding:.45rem 0}` +
  `.logo{display:block;height:2rem;width:auto;max-width:12rem;object-fit:contain}` +
  // Header links of the site's customization: links, buttons, and <details> menus.
  `.hlinks ul{display:flex;align-items:center;gap:.75rem;list-style:none;margin:0;padding:0}.hlinks li{white-space:nowrap;position:relative}` +
  `.hlinks a,.hlinks summary{color:var(--fg2);text-decoration:none;font-size:.94rem;cursor:pointer;display:block;padding:.3rem 0}.hlinks a:hover,.hlinks summary:hover{color:var(--fg)}.hlinks summary{list-style:none}.hlinks summary::-webkit-details-marker{display:none}.hlinks summary:after{content:"";display:inline-block;width:.4em;height:.4em;margin:0 0 .2em;margin-inline-start:.45em;border:solid currentColor;border-width:0 1.5px 1.5px 0;transform:rotate(45deg)}` +
  `.hlinks .button-primary,.hlinks .button-secondary{padding:.3rem .8rem;border-radius:.5rem;border:1px solid var(--accent)}.hlinks .button-primary{background:var(--accent);color:var(--bg)}.hlinks .button-primary:hover{color:var(--bg)}.hlinks .button-secondary{color:var(--accent)}` +
  `.hlinks details ul{position:absolute;inset-inline-end:0;top:100%;z-index:25;display:block;min-width:11rem;background:var(--bg);border:1px solid var(--line);border-radius:.5rem;padding:.35rem;box-shadow:0 8px 24px #0003}.hlinks details a{padding:.35rem .6rem;border-radius:.35rem}.hlinks details a:hover{background:var(--bg2)}` +
  `.tools{display:flex;align-items:center;gap:.5rem;margin-inline-start:auto}.tools button{display:none;font:inherit;font-size:.9rem;color:var(--fg2);background:var(--bg2);border:1px solid var(--line);border-radius:.5rem;padding:.35rem .7rem;cursor:pointer}` +
  `.js .tools button{display:inline-flex;align-items:center;gap:.4rem;min-height:2.1rem}.i-sun{display:none}[data-theme=dark] .i-sun{display:block}[data-theme=dark] .i-moon{display:none}` +
  `@media(prefers-color-scheme:dark){${AUTO_DARK} .i-sun{display:block}${AUTO_DARK} .i-moon{display:none}}.tools kbd{font:inherit;font-size:.75rem;border:1px solid var(--line);border-radius:.25rem;padding:0 .3rem}` +
  // Columns
  `.layout{display:flex;max-width:90rem;margin:0 auto}` +
  `.sidebar{width:17rem;flex:none;position:sticky;top:3.8rem;align-self:flex-start;max-height:calc(100vh - 3.8rem);overflow-y:auto;padding-block:1.25rem 2rem;padding-inline:1.25rem .75rem}` +
  `.sidebar ul{list-style:none;margin:0;padding:0;padding-inline-start:.75rem;border-inline-start:1px solid var(--line)}.sidebar nav>ul{padding-inline-start:0;border:0}` +
  `.sidebar a{display:block;padding:.3rem .6rem;border-radius:.4rem;text-decoration:none;color:var(--fg2);font-size:.94rem}.sidebar a:hover{color:var(--fg);background:var(--bg2)}` +
  `.sidebar a[aria-current]{background:var(--accent-bg);color:var(--accent);font-weight:600}` +
  `.sidebar .group{font-weight:600;font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:var(--fg2);margin-block:1.1rem .3rem;margin-inline:.6rem 0}` +
  `.variants{margin:0 0 1rem}.variants ul{display:flex;flex-wrap:wrap;gap:.3rem;border:0;padding:0}.variants a{border:1px solid var(--line);font-size:.85rem;padding:.15rem .6rem}` +
  `.sidebar .close{display:none}.sidebar .close:hover{background:none}` +
  `main{flex:1;min-width:0;padding:2rem 2.5rem 4rem}article{max-width:46rem}` +
  `h1.title{font-size:2.1rem;line-height:1.2;margin:.3rem 0 .6rem}p.description{color:var(--fg2);font-size:1.15rem;margin:0 0 1.5rem}` +
  `article h2{margin-top:2.2rem;padding-top:.2rem}article h2,article h3,article h4{line-height:1.3;position:relative}` +
  `.anchor{margin-inline-start:.4rem;text-decoration:none;color:var(--fg2);opacity:0}h2:hover .anchor,h3:hover .anchor,h4:hover .anchor,.anchor:focus{opacity:1}` +
  `.crumbs ol{display:flex;flex-wrap:wrap;gap:.3rem;list-style:none;margin:0;padding:0;font-size:.85rem;color:var(--fg2)}.crumbs li+li:before{content:"/";margin-inline-end:.3rem}` +
  `.crumbs a{color:var(--fg2);text-decoration:none}` +
  `.toc{width:15rem;flex:none;position:sticky;top:3.8rem;align-self:flex-start;max-height:calc(100vh - 3.8rem);overflow-y:auto;padding:2rem 1.25rem;font-size:.875rem}` +
  `.toc h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:var(--fg2);margin:0 0 .5rem}.toc ul{list-style:none;margin:0;padding:0;border-inline-start:1px solid var(--line)}` +
  `.toc a{display:block;padding:.2rem .75rem;color:var(--fg2);text-decoration:none;margin-inline-start:-1px;border-inline-start:2px solid transparent}.toc .lvl3 a{padding-inline-start:1.5rem}` +
  `.toc a[aria-current]{color:var(--accent);border-inline-start-color:var(--accent)}` +
  `.pager{display:flex;gap:1rem;margin-top:3rem;max-width:46rem}.pager a{flex:1;border:1px solid var(--line);border-radius:.6rem;padding:.75rem 1rem;text-decoration:none;color:var(--fg)}` +
  `.pager a:hover{border-color:var(--accent)}.pager small{display:block;color:var(--fg2)}.pager .next{text-align:end}` +
  `.updated{color:var(--fg2);font-size:.85rem;margin-top:2rem}` +
  // Content
  `pre{background:var(--code);padding:1rem;overflow:auto;border-radius:.5rem;border:1px solid var(--line);font-size:.875rem;line-height:1.5}` +
  `code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}:not(pre)>code{background:var(--code);padding:.1rem .3rem;border-radius:.3rem}` +
  `.codewrap{position:relative}.copy{position:absolute;top:.45rem;right:.45rem;font:inherit;font-size:.8rem;color:var(--fg2);background:var(--bg);border:1px solid var(--line);border-radius:.35rem;padding:.15rem .5rem;cursor:pointer}` +
  // The button sits over the code's first line. Where a pointer can hover, it shows on hover or
  // keyboard focus only (as GitBook's does); on touch screens it stays, above a padded first line.
  `@media(hover:hover){.copy{opacity:0;transition:opacity .15s}.codewrap:hover .copy,.copy:focus-visible{opacity:1}}@media(hover:none){.codewrap pre{padding-top:2.4rem}}` +
  `.code-title{margin:1rem 0 -.5rem;padding:.4rem 1rem;font-size:.85rem;background:var(--bg2);border:1px solid var(--line);border-bottom:0;border-radius:.5rem .5rem 0 0}.code-title+pre,.code-title+.codewrap pre{border-radius:0 0 .5rem .5rem;margin-top:0}` +
  `.line-numbers code{counter-reset:ln}.line-numbers .line:before{counter-increment:ln;content:counter(ln);display:inline-block;width:2rem;margin-right:1rem;text-align:right;color:var(--fg2)}` +
  `table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%}td,th{border:1px solid var(--line);padding:.4rem .75rem}th{background:var(--bg2);text-align:start}` +
  // Light and dark variants of an image: the one of the current theme shows.
  `.only-dark{display:none}[data-theme=dark] .only-dark{display:inline}[data-theme=dark] .only-light{display:none}` +
  `@media(prefers-color-scheme:dark){${AUTO_DARK} .only-dark{display:inline}${AUTO_DARK} .only-light{display:none}}` +
  `img{max-width:100%;height:auto}figure{margin:1.5rem 0}figure p{margin:0;text-align:center}figcaption{color:var(--fg2);font-size:.875rem;text-align:center;margin-top:.4rem}` +
  `blockquote{margin:1rem 0;padding:0 1rem;border-inline-start:4px solid var(--line);color:var(--fg2)}` +
  `.hint{margin:1rem 0;padding:.75rem 1rem;border-radius:.5rem;border:1px solid;border-inline-start-width:4px;background:var(--bg2)}.hint>:first-child{margin-top:0}.hint>:last-child{margin-bottom:0}` +
  `.hint-info{border-color:var(--info)}.hint-success{border-color:var(--success)}.hint-warning{border-color:var(--warning)}.hint-danger{border-color:var(--danger)}` +
  `.hint:before{display:block;font-weight:600;font-size:.85rem;margin-bottom:.2rem}.hint-info:before{content:"ℹ Info";color:var(--info)}.hint-success:before{content:"✓ Tip";color:var(--success)}` +
  `.hint-warning:before{content:"⚠ Warning";color:var(--warning)}.hint-danger:before{content:"⛔ Danger";color:var(--danger)}` +
  `.tabs{border:1px solid var(--line);border-radius:.5rem;margin:1rem 0;padding:0 1rem}.tab-title{font-weight:600;margin:.75rem 0 .25rem}` +
  `.tablist{display:flex;gap:.25rem;border-bottom:1px solid var(--line);margin:0 -1rem;padding:0 .5rem;overflow-x:auto}.tablist button{font:inherit;background:none;border:0;color:var(--fg2);padding:.6rem .75rem;cursor:pointer;white-space:nowrap}` +
  `.tablist [aria-selected=true]{color:var(--accent);box-shadow:inset 0 -2px var(--accent)}.tabbed .tab-title{display:none}.tabbed .tab[hidden]{display:none}` +
  `details.expandable{border:1px solid var(--line);border-radius:.5rem;margin:1rem 0;padding:.5rem 1rem}details.expandable summary{cursor:pointer;font-weight:600}` +
  `.card{border:1px solid var(--line);border-radius:.6rem;margin:1rem 0;padding:.75rem 1rem}.card p{margin:0}.card a{text-decoration:none;font-weight:600}` +
  `.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.75rem;margin:1rem 0}.cards .card{margin:0}.card-title{font-weight:600}.cards p+p{color:var(--fg2);font-size:.9rem;margin-top:.25rem}` +
  `.embed a:before{content:"↗ "}.file a:before{content:"⤓ "}.content-ref a:before{content:"→ "}` +
  `.task-list-item{list-style:none}.contains-task-list{padding-inline-start:1.2rem}.task-list-item input{margin-block:0;margin-inline:-1.2rem .4rem}` +
  // Formulas (MathML from the server): wide ones scroll instead of widening the page.
  `.math-display{margin:1rem 0;overflow-x:auto;overflow-y:hidden;font-size:1.15em}math{font-family:"STIX Two Math","Latin Modern Math","Cambria Math",math}` +
  `[data-degraded] pre{white-space:pre-wrap}` +
  // Code reads left to right on every page, a right-to-left one included.
  `pre,.math-display{direction:ltr;text-align:left}` +
  // Search dialog
  `dialog.search{width:min(40rem,calc(100vw - 2rem));max-height:min(32rem,calc(100vh - 4rem));margin:4rem auto auto;padding:0;border:1px solid var(--line);border-radius:.75rem;background:var(--bg);color:var(--fg);box-shadow:0 16px 48px #0005}` +
  `dialog.search::backdrop{background:#0006}dialog.search input{width:100%;font:inherit;font-size:1.05rem;padding:1rem 1.25rem;border:0;border-bottom:1px solid var(--line);background:transparent;color:var(--fg);outline:0}` +
  `dialog.search ul{list-style:none;margin:0;padding:.5rem;overflow-y:auto;max-height:24rem}dialog.search li a{display:block;padding:.6rem .75rem;border-radius:.5rem;text-decoration:none;color:var(--fg)}` +
  `dialog.search li a small{display:block;color:var(--fg2);font-size:.85rem}dialog.search li[aria-selected=true] a{background:var(--accent-bg)}dialog.search mark{background:none;color:var(--accent);font-weight:600}` +
  `dialog.search .empty{padding:1rem 1.25rem;color:var(--fg2)}dialog.search .empty:empty{display:none}` +
  // Narrow screens: the page tree as a drawer, no table of contents.
  `@media(max-width:1279px){.toc{display:none}}` +
  `@media(max-width:899px){.menu{display:block}.sidebar{display:none;position:fixed;inset-block:0;inset-inline:0 auto;width:min(20rem,85vw);max-height:none;height:100vh;z-index:40;background:var(--bg);border-inline-end:1px solid var(--line);box-shadow:0 0 40px #0004}` +
  `.sidebar:target,.drawer-open .sidebar{display:block}.drawer-open:before{content:"";position:fixed;inset:0;z-index:35;background:#0006}.sidebar .close{display:block;padding:0 .5rem;text-align:end;font-size:1.4rem;text-decoration:none;color:var(--fg)}` +
  `main{padding:1.25rem 1rem 3rem}h1.title{font-size:1.7rem}.tools kbd,.tools .label{display:none}.bar{gap:.6rem;padding:.5rem .75rem}.pager{flex-direction:column}}` +
  `@media(max-width:599px){.bar{flex-wrap:wrap}nav.sections{order:3;flex-basis:100%}.hlinks{order:4;flex-basis:100%;overflow-x:auto}.hlinks details ul{inset-inline:0 auto}.logo{height:1.6rem;max-width:9rem}}` +
  // Highlighted code: light colors, dark ones when the dark theme is on.
  codeThemeCss('light') +
  codeThemeCss('dark', '[data-theme=dark] ') +
  `@media(prefers-color-scheme:dark){${codeThemeCss('dark', `${AUTO_DARK} `)}}` +
  `.refusal{max-width:36rem;margin:6rem auto;padding:0 1rem;text-align:center}` +
  // API reference blocks (openapi-render.ts).
  OPENAPI_STYLE +
  // Integration blocks (shared/contentkit).
  CONTENTKIT_STYLE +
  // The language switcher (language-switcher.ts).
  LANGUAGE_STYLE;
