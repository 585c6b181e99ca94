// Types of scripts/build-server.mjs (plain JavaScript: `npm start` runs it without a TypeScript loader).

export const ROOT: string;
/** Where the compiled server goes: server.cjs, main.js (its loader), cli.js, markdown-worker.js, saml-worker.js, prepare.js and their chunks. */
export const SERVER_OUT_DIR: string;
/** The server's CommonJS bundle in SERVER_OUT_DIR. */
export const SERVER_BUNDLE: string;
/** The name of the import() main.js hands the server bundle for the packages it imports at run time. */
export const CJS_RUNTIME_IMPORT: string;

export type ServerBuildDecision = { build: boolean; reason: string };

/** Compiles the server into `outDir` (which must sit inside the checkout, to find node_modules); resolves to the ms it took. */
export function buildServer(options?: { root?: string; outDir?: string }): Promise<number>;
/** Whether `outDir` must be (re)built: missing, or older than one of the sources it was built from. */
export function serverBuildDecision(outDir?: string): ServerBuildDecision;
/** Builds `outDir` when `serverBuildDecision` says so. */
export function ensureServerBuilt(outDir?: string): Promise<ServerBuildDecision>;
/** Packages bundled into the server (with what they import) because it loads them at every start. */
export const BOOT_PACKAGES: ReadonlySet<string>;
/** Packages never bundled (they find files or start threads relative to their own folder). */
export const KEEP_EXTERNAL: ReadonlySet<string>;
