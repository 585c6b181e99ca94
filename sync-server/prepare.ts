import { pgliteOptions } from './store/pglite';
import { ensurePgliteTemplate } from './store/pglite-template';

/**
 * The last step of `npm install` (scripts/postinstall.mjs runs the compiled copy): makes the
 * embedded database's template (an initdb'd data folder, pglite-template.ts), so the first
 * `npm start` on a new data folder copies it (~1 s) instead of running initdb first (~5 s more).
 * Nothing else: a start does this itself when the template is missing.
 */
const started = performance.now();
const dir = await ensurePgliteTemplate(pgliteOptions());
console.log(
  `folio: embedded database template ready in ${((performance.now() - started) / 1000).toFixed(1)} s (${dir})`,
);
