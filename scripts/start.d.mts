// Types of scripts/start.mjs (plain JavaScript: `npm start` runs it without a TypeScript loader).

/** Why the web app will (or will not) be built before the server starts. */
export type BuildDecision = { build: true; reason: string } | { build: false; reason: string };

export const WEB_APP_DIR: string;

/** Decides whether `npm start` builds the web app first: only when its entry page is missing. */
export function webAppBuildDecision(
  webAppDir: string,
  argv: readonly string[],
  env: Record<string, string | undefined>,
): BuildDecision;

/** Runs the project's build (electron-vite) and waits for it; its output only on failure unless `verbose`. */
export function buildWebApp(cwd?: string, verbose?: boolean): Promise<void>;

/** glibc's malloc settings of the server process. */
export const MALLOC_ENV: Readonly<Record<'MALLOC_ARENA_MAX' | 'MALLOC_MMAP_THRESHOLD_', string>>;

/** What `npm start` adds to the server's environment (the malloc settings on Linux when it can exec). */
export function serverEnvironment(
  env: Record<string, string | undefined>,
  platform?: NodeJS.Platform,
  canExec?: boolean,
): Record<string, string>;

/** Whether the build prints its own output (`--verbose`, FOLIO_VERBOSE_BUILD=1). */
export function verboseBuild(argv: readonly string[], env: Record<string, string | undefined>): boolean;
