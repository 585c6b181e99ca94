/**
 * The published site's rules for API reference blocks (openapi-render.ts), appended to the site's
 * stylesheet (style.ts). Colors come from the theme's variables, so light and dark both follow;
 * method badges and status codes are tinted with their color, their text nudged toward the text
 * color for contrast.
 */

const MONO = 'ui-monospace,SFMono-Regular,Menlo,monospace';
const tint = (color: string, pct: number) => `color-mix(in srgb,${color} ${pct}%,transparent)`;
// Small text in a theme color, nudged toward the text color: darker on light, lighter on dark (contrast ≥ 4.5).
const ink = (color: string) => `color-mix(in srgb,${color} 75%,var(--fg))`;
const METHODS: [string, string][] = [
  ['get', 'var(--success)'],
  ['post', 'var(--info)'],
  ['put', 'var(--warning)'],
  ['patch', 'var(--warning)'],
  ['delete', 'var(--danger)'],
  ['head', 'var(--fg2)'],
  ['options', 'var(--fg2)'],
  ['trace', 'var(--fg2)'],
];

export const OPENAPI_STYLE =
  `.openapi-operation{margin:1.5rem 0;border:1px solid var(--line);border-radius:.75rem;padding:1.25rem 1.25rem .75rem;background:var(--bg)}` +
  `.oa-head{display:flex;align-items:center;gap:.65rem;flex-wrap:wrap}` +
  `.oa-method{font:700 .78rem/1 ${MONO};letter-spacing:.04em;padding:.4rem .55rem;border-radius:.4rem;border:1px solid}` +
  METHODS.map(([m, c]) => `.oa-method-${m}{color:${ink(c)};background:${tint(c, 8)};border-color:${tint(c, 35)}}`).join(
    '',
  ) +
  `.openapi-operation code.oa-path{font-size:1rem;font-weight:600;background:none;padding:0;word-break:break-all}` +
  `.oa-summary{font-size:1.15rem;font-weight:600;margin:.9rem 0 .2rem}.oa-description>:first-child{margin-top:.3rem}.oa-description>:last-child{margin-bottom:.3rem}` +
  `.oa-servers{font-size:.85rem;color:var(--fg2);margin:.5rem 0}` +
  `.oa-code-title{margin:1rem 0 0;padding:.35rem .9rem;font-size:.8rem;font-weight:600;color:var(--fg2);background:var(--bg2);border:1px solid var(--line);border-bottom:0;border-radius:.5rem .5rem 0 0}` +
  `.oa-code pre{margin:0;border-radius:0 0 .5rem .5rem;max-height:28rem}` +
  `.oa-section{margin-top:1.6rem}.oa-section-title{font-weight:650;font-size:1rem;margin:0 0 .25rem;padding-bottom:.45rem;border-bottom:1px solid var(--line)}` +
  `.oa-fields{list-style:none;margin:0;padding:0}.oa-field{padding:.65rem 0;border-bottom:1px solid var(--line)}.oa-fields>.oa-field:last-child{border-bottom:0}` +
  `.oa-field-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25rem .55rem}` +
  `.openapi-operation code.oa-field-name{font-weight:600;font-size:.88rem;background:none;padding:0;color:var(--fg)}.oa-variant-name{font-weight:600;font-size:.9rem}` +
  `.oa-field-type{color:var(--fg2);font:.8rem ${MONO}}` +
  `.oa-required{color:var(--danger);font-size:.75rem;font-weight:600}.oa-deprecated{color:var(--warning);font-size:.75rem;font-weight:600;text-decoration:line-through}.oa-flag{color:var(--fg2);font-size:.75rem}` +
  `.oa-field-desc{font-size:.9rem;margin-top:.2rem}.oa-field-desc>p{margin:.15rem 0}` +
  `.oa-fact,.oa-media{margin:.3rem 0 0;font-size:.82rem;color:var(--fg2)}.oa-fact code,.oa-media code{font-size:.78rem;margin-right:.2rem}.oa-fact-label{font-weight:600}` +
  `.oa-nested{margin-top:.55rem;border:1px solid var(--line);border-radius:.5rem}` +
  `.oa-nested>summary{cursor:pointer;font-size:.8rem;color:var(--fg2);padding:.3rem .75rem;border-radius:.5rem}.oa-nested>summary:hover{color:var(--fg);background:var(--bg2)}` +
  `.oa-nested[open]>summary{border-bottom:1px solid var(--line);border-radius:.5rem .5rem 0 0}.oa-nested>.oa-fields{padding:0 .8rem}` +
  `.oa-variants{padding:.6rem 0}.oa-variants-label{font-size:.8rem;font-weight:600;color:var(--fg2);margin:0 0 .2rem}.oa-variants>.oa-fields{border-left:2px solid var(--line);padding-left:.8rem}` +
  `.oa-schema{margin-top:.4rem}.oa-schema>.oa-fact{margin-bottom:.2rem}` +
  `.oa-response{border:1px solid var(--line);border-radius:.5rem;margin:.6rem 0}` +
  `.oa-response>summary{cursor:pointer;padding:.55rem .85rem;display:flex;gap:.65rem;align-items:baseline;list-style:none;border-radius:.5rem}.oa-response>summary::-webkit-details-marker{display:none}` +
  `.oa-response>summary:before{content:"";flex:none;width:.45em;height:.45em;border:solid var(--fg2);border-width:0 1.5px 1.5px 0;transform:rotate(-45deg);align-self:center;transition:transform .15s}.oa-response[open]>summary:before{transform:rotate(45deg)}` +
  `.oa-response>summary:hover{background:var(--bg2)}.oa-response-desc{color:var(--fg2);font-size:.9rem;min-width:0}` +
  `.oa-status{font:700 .82rem ${MONO};padding:.15rem .45rem;border-radius:.35rem}` +
  `.oa-ok .oa-status{color:${ink('var(--success)')};background:${tint('var(--success)', 8)}}.oa-redirect .oa-status{color:${ink('var(--info)')};background:${tint('var(--info)', 8)}}` +
  `.oa-error .oa-status{color:${ink('var(--danger)')};background:${tint('var(--danger)', 8)}}.oa-other .oa-status{color:var(--fg2);background:var(--bg2)}` +
  `.oa-response-body{padding:.2rem .85rem .8rem;border-top:1px solid var(--line)}` +
  `.oa-notice{border-left:4px solid var(--warning);background:var(--bg2);padding:.85rem 1.1rem}.oa-notice p{margin:0}.oa-notice-title{font-weight:600;margin-bottom:.2rem!important}` +
  `@media(max-width:599px){.openapi-operation{padding:1rem .85rem .5rem;margin-left:-.25rem;margin-right:-.25rem}.oa-nested>.oa-fields{padding:0 .6rem}.oa-response-body{padding:.2rem .6rem .7rem}}`;
