/**
 * The stylesheet of rendered ContentKit (render.ts), for the published site (appended to its
 * stylesheet) and the editor (a <style> the live preview adds once). Colours come from the host's
 * theme variables, so light and dark both follow: the site's (`--bg2`, `--fg2`, `--code`,
 * `--accent-bg`) and the app's (`--panel`, `--muted`, `--code-bg`, `--accent-soft`), whichever
 * is defined. Sizes are classes, never `style` attributes (the site's CSP allows styles by hash).
 */

const V =
  '--ck-panel:var(--bg2,var(--panel,#f6f7f9));--ck-muted:var(--fg2,var(--muted,#59616b));' +
  '--ck-code:var(--code,var(--code-bg,#f6f8fa));--ck-soft:var(--accent-bg,var(--accent-soft,#eaf0fc));' +
  '--ck-on-accent:var(--accent-fg,var(--bg))';
const MONO = 'ui-monospace,SFMono-Regular,Menlo,monospace';
const RATIOS: [string, string][] = [
  ['1x1', '1/1'],
  ['4x3', '4/3'],
  ['3x2', '3/2'],
  ['16x9', '16/9'],
  ['2x1', '2/1'],
  ['21x9', '21/9'],
  ['3x4', '3/4'],
  ['9x16', '9/16'],
];

export const CONTENTKIT_STYLE =
  `.folio-ck{${V};margin:1.25em 0;color:var(--fg);overflow-wrap:anywhere}` +
  `.folio-ck .ck-block{display:flex;flex-direction:column;gap:.75rem;padding:1rem;border:1px solid var(--line);border-radius:.6rem;background:var(--bg)}` +
  `.folio-ck .ck-vstack{display:flex;flex-direction:column;gap:.6rem}.folio-ck .ck-hstack{display:flex;flex-wrap:wrap;gap:.6rem}` +
  `.folio-ck .ck-hstack.ck-align-center{align-items:center}.folio-ck .ck-hstack.ck-align-end{align-items:flex-end}` +
  `.folio-ck .ck-vstack.ck-align-center{align-items:center}.folio-ck .ck-vstack.ck-align-end{align-items:flex-end}` +
  `.folio-ck .ck-box{min-width:0}.folio-ck .ck-grow{flex:1 1 0}` +
  `.folio-ck .ck-text{margin:0}.folio-ck .ck-markdown>:first-child{margin-top:0}.folio-ck .ck-markdown>:last-child{margin-bottom:0}` +
  `.folio-ck code{font-family:${MONO};font-size:.88em;background:var(--ck-code);padding:.1em .3em;border-radius:.25rem}` +
  `.folio-ck .ck-divider{border:0;border-top:1px solid var(--line);margin:.25rem 0;width:100%}` +
  `.folio-ck .ck-divider-large{margin:.75rem 0}.folio-ck .ck-divider-small{margin:0}` +
  `.folio-ck .ck-image{display:block;max-width:100%;height:auto;border-radius:.4rem;object-fit:cover}` +
  `.folio-ck .ck-inline-image{height:1.2em;width:auto;vertical-align:middle}` +
  RATIOS.map(([c, r]) => `.folio-ck .ck-ar-${c}{aspect-ratio:${r}}`).join('') +
  `.folio-ck .ck-inline-image[class*=ck-ar-]{aspect-ratio:auto}` +
  `.folio-ck .ck-button{display:inline-flex;align-items:center;gap:.35rem;font:inherit;font-size:.9rem;line-height:1.2;padding:.45rem .85rem;border-radius:.4rem;border:1px solid var(--line);background:var(--ck-panel);color:var(--fg);text-decoration:none;cursor:pointer}` +
  `.folio-ck .ck-button-primary{background:var(--accent);border-color:var(--accent);color:var(--ck-on-accent)}` +
  `.folio-ck .ck-button-danger{color:var(--danger);border-color:var(--danger);background:transparent}` +
  `.folio-ck .ck-button:disabled{opacity:.6;cursor:default}` +
  `.folio-ck .ck-textinput,.folio-ck .ck-select{font:inherit;font-size:.9rem;padding:.4rem .6rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg);min-width:0;width:100%}` +
  `.folio-ck textarea.ck-textinput{min-height:5rem;resize:vertical}` +
  `.folio-ck .ck-switch,.folio-ck .ck-checkbox,.folio-ck .ck-radio{accent-color:var(--accent);width:1rem;height:1rem}` +
  `.folio-ck .ck-input{display:flex;flex-direction:column;gap:.3rem}.folio-ck .ck-input-label{font-weight:600;font-size:.9rem}` +
  `.folio-ck .ck-input-hint{color:var(--ck-muted);font-size:.85rem}` +
  `.folio-ck .ck-codeblock{border:1px solid var(--line);border-radius:.5rem;overflow:hidden;background:var(--ck-code)}` +
  `.folio-ck .ck-codeblock-head,.folio-ck .ck-codeblock-foot{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;padding:.4rem .75rem;border-bottom:1px solid var(--line);font-size:.85rem}` +
  `.folio-ck .ck-codeblock-foot{border-bottom:0;border-top:1px solid var(--line)}` +
  `.folio-ck .ck-pre{margin:0;padding:.85rem 1rem;overflow-x:auto;direction:ltr;text-align:left;font-size:.88rem;line-height:1.5}` +
  `.folio-ck .ck-pre code{background:none;padding:0;font-size:inherit}` +
  `.folio-ck .ck-webframe{width:100%;border:1px solid var(--line);border-radius:.5rem;overflow:hidden;background:var(--ck-panel)}` +
  `.folio-ck .ck-webframe iframe{display:block;width:100%;height:100%;border:0}` +
  `.folio-ck .ck-card{display:flex;flex-direction:column;gap:.6rem;padding:.85rem 1rem;border:1px solid var(--line);border-radius:.5rem;background:var(--ck-panel);color:var(--fg);text-decoration:none}` +
  `.folio-ck a.ck-card:hover{border-color:var(--accent)}` +
  `.folio-ck .ck-card-head{display:flex;gap:.6rem;align-items:center}.folio-ck .ck-card-head>span{display:flex;flex-direction:column;min-width:0}` +
  `.folio-ck .ck-card-icon{width:2rem;height:2rem;border-radius:.3rem;object-fit:contain}` +
  `.folio-ck .ck-card-title{font-weight:600}.folio-ck .ck-card-hint{color:var(--ck-muted);font-size:.85rem}` +
  `.folio-ck .ck-card-buttons{display:flex;flex-wrap:wrap;gap:.5rem}` +
  `.folio-ck .ck-hint{padding:.6rem .85rem;border-inline-start:3px solid var(--accent);border-radius:.4rem;background:var(--ck-soft)}` +
  `.folio-ck .ck-modal-title{font-weight:600;margin:0 0 .5rem}` +
  `.folio-ck .ck-link{color:var(--accent)}` +
  // A block that could not be drawn: quiet, one line, its title.
  `.folio-ck-placeholder{display:flex;flex-direction:column;gap:.15rem;margin:1.25em 0;padding:.75rem 1rem;border:1px dashed var(--line);border-radius:.6rem;color:var(--fg2,var(--muted,#59616b));font-size:.9rem}` +
  `.folio-ck-placeholder strong{color:var(--fg)}.folio-ck-placeholder .ck-reason{font-size:.85rem}`;
