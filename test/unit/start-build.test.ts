import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webAppBuildDecision } from '../../scripts/start.mjs';

/**
 * `npm start` on a fresh clone (no out/renderer) builds the web app before the
 * server starts, so /app/ serves the app instead of 503; an existing build is
 * left alone (no rebuild on every restart), and --help or
 * FOLIO_SKIP_WEB_BUILD=1 skip it. The build itself is `electron-vite build`
 * (timed in the README: a few seconds).
 */
let built: string;
let missing: string;

beforeAll(async () => {
  built = await mkdtemp(join(tmpdir(), 'folio-built-'));
  missing = await mkdtemp(join(tmpdir(), 'folio-missing-'));
  await writeFile(join(built, 'index.html'), '<!doctype html>');
});
afterAll(async () => {
  await rm(built, { recursive: true, force: true });
  await rm(missing, { recursive: true, force: true });
});

it('builds when the entry page is missing', () => {
  const decision = webAppBuildDecision(missing, [], {});
  expect(decision.build).toBe(true);
  expect(decision.reason).toContain('index.html');
});

it('does not rebuild an existing build', () => {
  expect(webAppBuildDecision(built, [], {})).toEqual({ build: false, reason: 'already built' });
});

it('skips the build for --help and when opted out', () => {
  expect(webAppBuildDecision(missing, ['--help'], {}).build).toBe(false);
  expect(webAppBuildDecision(missing, ['-h'], {}).build).toBe(false);
  expect(webAppBuildDecision(missing, [], { FOLIO_SKIP_WEB_BUILD: '1' }).build).toBe(false);
  expect(webAppBuildDecision(missing, [], { FOLIO_SKIP_WEB_BUILD: '0' }).build).toBe(true);
});
