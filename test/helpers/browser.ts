import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { startCompiledServer, type CompiledServer } from './compiled-server';
import { requireBuiltRenderer, startStaticServer } from './web-app';
import { screenshotEveryWay, type EveryWayOptions } from './screenshots';

/**
 * The end-to-end fixture: headless Debian Chromium driven through
 * playwright-core against real servers — the compiled server, started as
 * `npm start` starts it (compiled-server.ts), so the suites test what users
 * run. `useChromium` sets it all up before a file's tests and closes it all
 * after them, so each e2e file states only what it needs.
 */

/** Where end-to-end tests save screenshots (gitignored; CI keeps it as an artifact). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../test-artifacts', import.meta.url));

/** Debian's chromium; the flags keep it off the (closed) network and out of the GPU. */
export const CHROMIUM_PATH = process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium';

/** Launches headless Debian Chromium the way every browser test here does. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/** What an e2e file needs besides the browser. */
export interface ChromiumFixtureOptions {
  /** How many compiled servers to start (default 1; 0 when the file starts its own, e.g. with settings known later). */
  servers?: number;
  /** FOLIO_* settings of those servers. */
  env?: Record<string, string>;
  /** Each server also signs people in through an OpenID provider of its own (people.ts's newPerson, newMember). */
  people?: boolean;
  /** The file drives the built web app: fail at once, with the fix, when `npm run build` has not run. */
  app?: boolean;
  /** Also serve the built renderer from a plain static server (how Electron loads it: from disk, not from the sync server). */
  staticApp?: boolean;
}

/** The running fixture (its parts exist from the file's first beforeAll on). */
export interface ChromiumFixture {
  readonly browser: Browser;
  /** The first test server. */
  readonly server: CompiledServer;
  /** Every test server, in start order. */
  readonly servers: readonly CompiledServer[];
  /** The static server's URL of the built renderer (with `staticApp`). */
  readonly staticUrl: string;
  /** A new browser context (its own storage: a second user, or a window that goes offline); closed after the file. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page in a new context of its own (closing the page closes the context); closed after the file. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Saves a full-page screenshot as test-artifacts/<name>.png and returns its path. */
  screenshot(page: Page, name: string): Promise<string>;
  /**
   * Saves `<name>-<width>-<scheme>` at desktop (1280) and phone (390) widths, light and dark, then
   * leaves the page at 1280 wide and light.
   */
  screenshotEveryWay(page: Page, name: string, options?: EveryWayOptions): Promise<void>;
}

/**
 * Registers the file's beforeAll (build check, servers, static server, Chromium) and afterAll
 * (contexts, Chromium, servers, static server) and returns the fixture they fill in.
 */
export function useChromium(options: ChromiumFixtureOptions = {}): ChromiumFixture {
  let browser: Browser | undefined;
  let statics: { url: string; close(): Promise<void> } | undefined;
  const servers: CompiledServer[] = [];
  const contexts: BrowserContext[] = [];
  const started = <T>(part: T | undefined, what: string): T => {
    if (part === undefined) throw new Error(`the e2e fixture has no ${what} (not started yet, or not asked for)`);
    return part;
  };

  beforeAll(async () => {
    if (options.app || options.staticApp) requireBuiltRenderer();
    const count = options.servers ?? 1;
    servers.push(
      ...(await Promise.all(
        Array.from({ length: count }, () =>
          startCompiledServer({ ...(options.env ? { env: options.env } : {}), people: options.people ?? false }),
        ),
      )),
    );
    if (options.staticApp) statics = await startStaticServer();
    browser = await launchChromium();
  });
  // A failing test shows what the servers said (they log warnings and errors).
  afterEach((ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    for (const [i, server] of servers.entries()) {
      const said = server.output().trim();
      if (said) console.log(`[compiled server ${i} at ${server.url}]\n${said.slice(-4000)}`);
    }
  });
  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
    await browser?.close();
    for (const server of servers.splice(0)) await server.close();
    await statics?.close();
  });

  const fixture: ChromiumFixture = {
    get browser() {
      return started(browser, 'browser');
    },
    get server() {
      return started(servers[0], 'server');
    },
    get servers() {
      return servers;
    },
    get staticUrl() {
      return started(statics, 'static server').url;
    },
    async newContext(contextOptions) {
      const context = await fixture.browser.newContext(contextOptions);
      contexts.push(context);
      return context;
    },
    async newPage(contextOptions) {
      // browser.newPage: the page owns its context, so closing the page closes both.
      const page = await fixture.browser.newPage(contextOptions);
      contexts.push(page.context());
      return page;
    },
    async screenshot(page, name) {
      await mkdir(ARTIFACTS_DIR, { recursive: true });
      const path = join(ARTIFACTS_DIR, `${name.replace(/[^a-z0-9_-]+/gi, '-')}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async screenshotEveryWay(page, name, shotOptions) {
      await screenshotEveryWay(page, join(ARTIFACTS_DIR, name.replace(/[^a-z0-9_-]+/gi, '-')), shotOptions);
    },
  };
  return fixture;
}
