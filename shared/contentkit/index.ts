/** ContentKit → HTML (render.ts), shared by the published site and the editor, and its stylesheet. */
export { renderContentKit, type ContentKitRenderOptions } from './render';
export { contentKitText, markdownSources, type CkNode } from './text';
export { escapeHtml, safeHttpUrl, safeImageUrl } from './safe';
export { CONTENTKIT_STYLE } from './style';
