// The file a sandbox worker thread loads when the server runs from its sources (pool.ts; the
// compiled server loads the plain-JS out/server/integration-sandbox-worker.js instead). A worker
// thread does not inherit the parent's TypeScript loader (vitest's, or `--import tsx`), so this
// registers tsx in its own namespace and imports the TypeScript worker through it.
import { register } from 'tsx/esm/api';

const tsx = register({ namespace: 'folio-integration-sandbox-worker' });
await tsx.import('./worker.ts', import.meta.url);
