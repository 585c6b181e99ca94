import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { describe, expect, it } from 'vitest';

/**
 * Packaging cannot run here (it downloads the Electron binary), so the electron-builder config
 * goes through electron-builder's own loader and schema validation, plus the checks below.
 */
const projectDir = resolve(import.meta.dirname, '../..');

async function loadConfig() {
  const config = await getConfig(projectDir, 'electron-builder.yml', null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

const targets = (target: unknown): string[] =>
  (Array.isArray(target) ? target : [target]).map((t) =>
    typeof t === 'string' ? t : (t as { target: string }).target,
  );

describe('electron-builder.yml', () => {
  it('passes electron-builder validation and builds Linux AppImage+deb, macOS dmg, Windows nsis', async () => {
    const config = await loadConfig();
    expect(config.appId).toBe('dev.folio.desktop');
    expect(config.productName).toBe('Folio');
    expect(targets(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(targets(config.mac?.target)).toEqual(['dmg']);
    expect(targets(config.win?.target)).toEqual(['nsis']);
    // deb packages need a maintainer; package.json has no author to take it from.
    expect(config.linux?.maintainer).toMatch(/<.+@.+>/);
  });

  it('packs the built app only: out/ and package.json, which points at out/main', async () => {
    const config = await loadConfig();
    const files = (config.files as { filter: string[] }[])[0]!.filter;
    expect(files).toEqual(
      expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**', 'package.json', '!node_modules/**']),
    );
    const pkg = JSON.parse(readFileSync(resolve(projectDir, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main).toBe('out/main/index.js');
  });

  it('uses a 512x512 PNG icon for every platform', async () => {
    const config = await loadConfig();
    for (const icon of [config.linux?.icon, config.mac?.icon, config.win?.icon]) expect(icon).toBe('build/icon.png');
    const png = readFileSync(resolve(projectDir, 'build/icon.png'));
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
  });

  it('turns off the Electron fuses the app does not need', async () => {
    const config = await loadConfig();
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      onlyLoadAppFromAsar: true,
    });
  });
});
