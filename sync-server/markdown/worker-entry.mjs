// The file a parse-pool worker thread loads (tinypool imports its default export). Workers
// start without the parent's TypeScript loader when the parent was not started with
// `--import tsx` (vitest, for one), so this registers tsx in its own namespace and imports the
// TypeScript handler through it: the same code runs under `npm start`, the tests and the CLI.
import { register } from 'tsx/esm/api';

const tsx = register({ namespace: 'folio-markdown-worker' });
const worker = await tsx.import('./worker.ts', import.meta.url);

export default worker.default;
