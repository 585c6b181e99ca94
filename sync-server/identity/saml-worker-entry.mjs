// The file a SAML verifier thread loads when the server runs from its sources (saml-verifier.ts;
// the compiled server loads the plain-JS out/server/saml-worker.js instead). A worker thread does
// not inherit the parent's TypeScript loader (vitest's, or `--import tsx`), so this registers tsx in
// its own namespace and imports the TypeScript worker through it.
import { register } from 'tsx/esm/api';

const tsx = register({ namespace: 'folio-saml-worker' });
await tsx.import('./saml-worker.ts', import.meta.url);
