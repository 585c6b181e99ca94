/**
 * How the preview marks links to other pages: render-markdown.ts rewrites
 * `/pages/<id>` links to this prefix, and the preview pane turns clicks on
 * them into in-app navigation. A module of its own so the pane can know it
 * without loading the markdown renderer (a separate, lazily loaded chunk).
 */
export const PAGE_LINK_PREFIX = '#folio-page=';
