// The file the embedded database's worker thread loads when the server runs from its TypeScript
// sources (the compiled server starts out/server/pglite-thread.js instead). Workers start without
// the parent's TypeScript loader when the parent was not started with `--import tsx` (vitest, for
// one), so this registers tsx in its own namespace and imports the thread's code through it.
import { register } from 'tsx/esm/api';

const tsx = register({ namespace: 'folio-pglite-thread' });
await tsx.import('./pglite-thread.ts', import.meta.url);
