import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MALLOC_ENV, serverEnvironment, verboseBuild, webAppBuildDecision } from '../../scripts/start.mjs';
import { ROOT } from '../helpers/cli-process';

/**
 * `npm start` on a fresh clone (no out/renderer) builds the web app before the
 * server starts, so /app/ serves the app instead of 503; an existing build is
 * left alone (no rebuild on every restart), and --help or
 * FOLIO_SKIP_WEB_BUILD=1 skip it. The build itself is `electron-vite build`
 * (timed in docs/desktop.md: a few seconds).
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

describe('npm start in any shell', () => {
  it('has no shell syntax in its script: the environment is set by scripts/start.mjs', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
    // cmd.exe (npm's shell on Windows) runs neither `NAME=value cmd` nor `$VAR`, `&&` or quotes the POSIX way.
    expect(pkg.scripts.start).toMatch(/^node( --[a-z0-9-]+(=\S+)?)* scripts\/start\.mjs$/);
  });

  it("adds glibc's malloc settings on Linux when Node can exec itself with them, keeping the caller's", () => {
    expect(serverEnvironment({}, 'linux', true)).toEqual(MALLOC_ENV);
    expect(serverEnvironment({ MALLOC_ARENA_MAX: '4' }, 'linux', true)).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(serverEnvironment({}, 'win32', true)).toEqual({});
    expect(serverEnvironment({}, 'darwin', true)).toEqual({});
    // Without process.execve (Node 20) a wrapper process would cost more memory than the settings save.
    expect(serverEnvironment({}, 'linux', false)).toEqual({});
  });
});

describe("the web app's build on the first start", () => {
  let fake: string;
  beforeAll(async () => {
    fake = await mkdtemp(join(tmpdir(), 'folio-fake-build-'));
    await mkdir(join(fake, 'node_modules', '.bin'), { recursive: true });
  });
  afterAll(async () => {
    await rm(fake, { recursive: true, force: true });
  });

  /** A stand-in for electron-vite that lists 130 chunks as vite does, and exits with `code`. */
  async function fakeVite(code: number): Promise<void> {
    const bin = join(fake, 'node_modules', '.bin', 'electron-vite');
    const lines = Array.from({ length: 130 }, (_, i) => `out/renderer/assets/chunk-${i}.js   ${i}.00 kB`);
    await writeFile(
      bin,
      `#!/bin/sh\ncat <<'EOF'\n${lines.join('\n')}\nEOF\n${code ? 'echo "error: Could not resolve ./missing" >&2\n' : ''}exit ${code}\n`,
    );
    await chmod(bin, 0o755);
  }

  /** Runs buildWebApp in a child node whose output the test reads (what a person sees in their terminal). */
  async function startBuild(verbose: boolean): Promise<{ code: number; output: string }> {
    const script = `import { buildWebApp } from ${JSON.stringify(pathToFileURL(join(ROOT, 'scripts', 'start.mjs')).href)};
      buildWebApp(${JSON.stringify(fake)}, ${verbose}).then(() => console.log('built'), (e) => { console.log(e.message); process.exitCode = 3; });`;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('close', (code) => resolve({ code: code ?? -1, output }));
    });
  }

  it("keeps vite's chunk list back when the build succeeds", async () => {
    await fakeVite(0);
    const { code, output } = await startBuild(false);
    expect(code).toBe(0);
    expect(output.trim()).toBe('built');
  });

  it('shows the end of the output when the build fails, and all of it with --verbose', async () => {
    await fakeVite(1);
    const failed = await startBuild(false);
    expect(failed.code).toBe(3);
    expect(failed.output).toMatch(/electron-vite build exited with 1; its last lines:/);
    expect(failed.output).toContain('error: Could not resolve ./missing');
    expect(failed.output).not.toContain('chunk-0.js');
    await fakeVite(0);
    const verbose = await startBuild(true);
    expect(verbose.output).toContain('chunk-0.js');
    expect(verbose.output).toContain('chunk-129.js');
    expect(verboseBuild(['--verbose'], {})).toBe(true);
    expect(verboseBuild([], { FOLIO_VERBOSE_BUILD: '1' })).toBe(true);
    expect(verboseBuild([], {})).toBe(false);
  });
});
