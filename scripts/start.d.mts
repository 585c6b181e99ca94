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

/** Runs the project's build (electron-vite: the renderer and the desktop shell) and waits for it. */
export function buildWebApp(cwd?: string): Promise<void>;
