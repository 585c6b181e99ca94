import { build, type Metafile } from 'esbuild';
import { beforeAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli-process';

/**
 * What the server loads at boot: the static import graph of sync-server/main.ts, as the compiled
 * start (scripts/build-server.mjs) bundles it. Modules a request needs only later are imported with
 * `import()` where they are used, so a start does not pay for them (issue 17: first answer within a
 * second). These are the ones moved off the boot path; a static import of them anywhere on it
 * would bring their cost back unnoticed.
 */
let graph: { files: Set<string>; packages: Map<string, string> };
/** main.ts's own static closure: what loads before it starts PGlite's compile and imports the server. */
let mainOnly: { files: Set<string>; packages: Map<string, string> };

/** The static (import-statement) closure of `entries`: our files, and each package with the file that imports it. */
function staticClosure(inputs: Metafile['inputs'], ...entries: string[]) {
  const files = new Set(entries);
  const packages = new Map<string, string>();
  for (const file of files)
    for (const im of inputs[file]?.imports ?? []) {
      if (im.kind !== 'import-statement') continue;
      if (im.external) {
        if (!packages.has(im.path)) packages.set(im.path, file);
      } else files.add(im.path);
    }
  return { files, packages };
}

beforeAll(async () => {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['sync-server/main.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    splitting: true,
    outdir: 'out/boot-imports-test',
    metafile: true,
    logLevel: 'silent',
  });
  // main.ts imports server.ts with import() at once (after starting PGlite's compile): both are the boot path.
  graph = staticClosure(result.metafile.inputs, 'sync-server/main.ts', 'sync-server/server.ts');
  mainOnly = staticClosure(result.metafile.inputs, 'sync-server/main.ts');
}, 60_000);

it("main.ts starts PGlite's compile before it loads the server (its own imports are light)", () => {
  expect(mainOnly.files.has('sync-server/store/pglite-wasm.ts')).toBe(true);
  expect(mainOnly.files.has('sync-server/server.ts')).toBe(false);
  expect(mainOnly.packages.has('fastify')).toBe(false);
  expect(mainOnly.packages.has('@electric-sql/pglite')).toBe(false);
});

it('the boot path does not load jose (visitor tokens load it on first use)', () => {
  // Sanity: the graph is the server's (fastify is imported at boot).
  expect(graph.packages.has('fastify')).toBe(true);
  expect(graph.packages.get('jose')).toBeUndefined();
});

it('the boot path does not load the markdown index nor the document-to-markdown serializer', () => {
  expect(graph.files.has('sync-server/app.ts')).toBe(true);
  expect(graph.files.has('shared/markdown/index.ts')).toBe(false);
  expect(graph.files.has('shared/markdown/from-document.ts')).toBe(false);
});

it('the boot path does not load the markdown parser (the parse pool and first uses load it)', () => {
  // Materializer takes its analyzer from its caller, and splitting blocks lives apart from their keys.
  expect(graph.files.has('shared/doc/materialize.ts')).toBe(true);
  expect(graph.files.has('shared/markdown/parse.ts')).toBe(false);
  expect(graph.files.has('shared/markdown/analyze.ts')).toBe(false);
});

it('the boot path does not load the AWS SDK (s3-blobs.ts loads it when FOLIO_S3_BUCKET is set)', () => {
  expect([...graph.packages.keys()].filter((p) => p.startsWith('@aws-sdk/'))).toEqual([]);
  expect(graph.files.has('sync-server/store/s3-blobs.ts')).toBe(false);
  expect(graph.files.has('sync-server/store/open-blob-store.ts')).toBe(true);
});
