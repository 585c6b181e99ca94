import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The fixture integrations' folder (test/fixtures/integrations/<name>/src/index.js). */
export const INTEGRATION_FIXTURES = fileURLToPath(new URL('../fixtures/integrations/', import.meta.url));

/**
 * Bundles an integration's script as GitBook's CLI does (GitbookIO/integrations
 * packages/cli/src/build.ts, buildScriptFromManifest): one ES module for a Workers-style runtime,
 * platform neutral, browser/worker conditions, MODE and process.env.NODE_ENV defined, node: and
 * cloudflare: imports left external, JSX through the ContentKit runtime. Answers the script's text.
 */
export async function bundleIntegration(
  entry: string,
  mode: 'production' | 'development' = 'production',
): Promise<string> {
  const result = await build({
    platform: 'neutral',
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: mode === 'production',
    sourcemap: mode === 'development' ? 'inline' : false,
    write: false,
    mainFields: ['worker', 'browser', 'module', 'jsnext', 'main'],
    conditions: ['worker', 'browser', 'import', 'production'],
    define: { 'process.env.NODE_ENV': JSON.stringify(mode), MODE: JSON.stringify(mode) },
    external: ['node:*', 'cloudflare:*'],
    jsx: 'automatic',
    jsxImportSource: '@gitbook/runtime',
    globalName: '__gitbook_integration',
    loader: { '.raw.js': 'text', '.raw.css': 'text' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** The multipart body GitBook's dispatcher POSTs to an integration: `event`, `fetch-body`, `environment`. */
export async function dispatcherRequest(
  event: object,
  environment: object,
  fetchBody = '',
  url = 'https://integrations.folio.test/v1',
): Promise<{ method: string; url: string; headers: [string, string][]; body: Uint8Array }> {
  const form = new FormData();
  form.append('event', JSON.stringify(event));
  form.append('fetch-body', fetchBody);
  form.append('environment', JSON.stringify(environment));
  const encoded = new Request(url, { method: 'POST', body: form });
  return {
    method: 'POST',
    url,
    headers: [['content-type', encoded.headers.get('content-type')!]],
    body: new Uint8Array(await encoded.arrayBuffer()),
  };
}
