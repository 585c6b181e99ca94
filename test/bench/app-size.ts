import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The web app's JavaScript as a browser downloads it: gzip bytes of every chunk of a built
 * renderer (out/renderer), and of those index.html loads before the first paint (its module
 * script and modulepreloads) — what the sign-in form and the picker wait for.
 */
export interface AppSize {
  totalGzip: number;
  initialGzip: number;
  chunks: number;
}

export async function appJavaScriptSize(dir: string): Promise<AppSize> {
  const assets = join(dir, 'assets');
  const files = (await readdir(assets)).filter((f) => f.endsWith('.js'));
  const gz = new Map<string, number>();
  for (const f of files) gz.set(f, gzipSync(await readFile(join(assets, f)), { level: 9 }).length);
  const html = await readFile(join(dir, 'index.html'), 'utf8');
  const initial = new Set([...html.matchAll(/assets\/([^"']+\.js)/g)].map((m) => m[1]!));
  let totalGzip = 0;
  let initialGzip = 0;
  for (const [f, size] of gz) {
    totalGzip += size;
    if (initial.has(f)) initialGzip += size;
  }
  return { totalGzip, initialGzip, chunks: files.length };
}

// `node --import tsx test/bench/app-size.ts <dir> [<baseline dir>]`: prints one build, or two side by side.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'out/renderer', base] = process.argv.slice(2);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const now = await appJavaScriptSize(dir);
  console.log(
    `app JS (gzip): initial ${kb(now.initialGzip)}, all ${kb(now.totalGzip)} in ${now.chunks} chunks (${dir})`,
  );
  if (base) {
    const before = await appJavaScriptSize(base);
    console.log(
      `baseline:      initial ${kb(before.initialGzip)}, all ${kb(before.totalGzip)} in ${before.chunks} chunks (${base})`,
    );
    console.log(
      `ratio: initial ${(now.initialGzip / before.initialGzip).toFixed(3)}x, all ${(now.totalGzip / before.totalGzip).toFixed(3)}x`,
    );
  }
}
