// @ts-check
/* global structuredClone */
/**
 * The worker thread that parses, bundles and validates one OpenAPI specification (parse.ts starts
 * one per processing and ends it after its answer or its time budget), so a large specification
 * never holds the server's event loop. Plain JavaScript: it runs as is under the tests, `tsx` and
 * the compiled server (which loads it from here, next to parse.ts), importing only packages.
 *
 * - The entry document (JSON or YAML, its text handed in) is parsed with `yaml` (YAML 1.2, alias
 *   expansion bounded) or JSON.parse.
 * - External `$ref`s are resolved and bundled by @apidevtools/json-schema-ref-parser with one
 *   resolver of our own: it never fetches, it asks the parent thread, which fetches through the
 *   server's outbound fetcher (address policy, size and time limits). At most `maxFiles` files and
 *   `maxTotalBytes` characters in all.
 * - The bundle is validated as Swagger 2.0, OpenAPI 3.0 or 3.1 by @readme/openapi-parser (the JSON
 *   schemas of each version plus the rules they do not express: duplicate operationIds, path
 *   parameters…).
 *
 * Answers `{type: 'result', ok: true, …}` or `{type: 'result', ok: false, code, message, errors}`
 * where code is GitBook's PARSE_ERROR, FETCH_ERROR or FETCH_TIMEOUT.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createHash } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { URL } from 'node:url';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { validate } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';

/** The base of a specification given as text: relative references have nothing to resolve against. */
const TEXT_BASE = 'folio-text:///';

/** A failure with GitBook's processing error code. */
class ProcessError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {boolean} [retryable]
   * @param {{message: string, code?: string}[]} [errors]
   */
  constructor(code, message, retryable = false, errors = undefined) {
    super(message);
    this.code = code;
    this.retryable = retryable;
    this.errors = errors ?? [{ message, code }];
    this.count = this.errors.length;
  }
}

const port = parentPort;
if (!port) throw new Error('parse-worker.mjs runs as a worker thread');

/** @type {Map<number, {resolve: (text: string) => void, reject: (err: Error) => void}>} */
const pending = new Map();
let lastRequest = 0;
port.on('message', (/** @type {any} */ m) => {
  if (m?.type !== 'fetched') return;
  const waiting = pending.get(m.id);
  pending.delete(m.id);
  if (!waiting) return;
  if (m.ok) waiting.resolve(m.text);
  else waiting.reject(new ProcessError(m.code, m.message, m.retryable));
});

/** The text at `url`, fetched by the parent thread. @param {string} url @returns {Promise<string>} */
function fetchText(url) {
  return new Promise((resolve, reject) => {
    const id = ++lastRequest;
    pending.set(id, { resolve, reject });
    port.postMessage({ type: 'fetch', id, url });
  });
}

/** Where a document is, for messages. @param {string} url */
const label = (url) => (url.startsWith(TEXT_BASE) ? 'The specification' : `"${url}"`);

/**
 * Parses a JSON or YAML document.
 * @param {string} text
 * @param {string} url
 * @returns {{value: unknown, format: 'json' | 'yaml'}}
 */
function parseDocument(text, url) {
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    try {
      return { value: JSON.parse(text), format: 'json' };
    } catch (err) {
      throw new ProcessError('PARSE_ERROR', `${label(url)} is not valid JSON: ${messageOf(err)}`);
    }
  }
  try {
    return { value: parseYaml(text, { maxAliasCount: 1000, prettyErrors: true }), format: 'yaml' };
  } catch (err) {
    throw new ProcessError(
      'PARSE_ERROR',
      `${label(url)} is not valid YAML: ${messageOf(err).split('\n')[0].replace(/:$/, '')}`,
    );
  }
}

/** @param {unknown} err */
function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}

/** The URL without its fragment. @param {string} url */
const withoutHash = (url) => url.replace(/#.*$/, '');

/** Every external `$ref` in `value`, resolved against `base` (fragments dropped). */
function externalRefs(/** @type {unknown} */ value, /** @type {string} */ base) {
  /** @type {Set<string>} */
  const out = new Set();
  /** @type {unknown[]} */
  const stack = [value];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) {
        try {
          out.add(withoutHash(new URL(child, base).href));
        } catch {
          // an unparseable reference: the bundler reports it
        }
      } else stack.push(child);
    }
  }
  return [...out];
}

/** A URL path decoded for display, or as it is when its escapes are malformed. @param {string} path */
function decoded(path) {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A file's name in the filesystem: relative to the entry's folder when under it, else its URL. */
function filenameOf(/** @type {string} */ url, /** @type {string} */ entryUrl) {
  const entryDir = entryUrl.replace(/[^/]*$/, '');
  if (url.startsWith(entryDir) && !url.startsWith(TEXT_BASE)) return decoded(url.slice(entryDir.length));
  return url;
}

const dirOf = (/** @type {string} */ filename) =>
  /^[a-z][a-z0-9+.-]*:/i.test(filename) ? filename.replace(/[^/]*$/, '') : filename.replace(/\/?[^/]*$/, '') || '.';

async function run() {
  const { entryUrl: sourceUrl, entryText, maxFiles, maxTotalBytes } = workerData;
  const { value: entry, format } = parseDocument(entryText, sourceUrl ?? TEXT_BASE);
  if (!entry || typeof entry !== 'object' || Array.isArray(entry))
    throw new ProcessError('PARSE_ERROR', 'The specification is not an object (a JSON or YAML mapping)');
  const doc = /** @type {Record<string, unknown>} */ (entry);
  const specVersion =
    typeof doc.openapi === 'string' ? doc.openapi : typeof doc.swagger === 'string' ? doc.swagger : undefined;
  if (!specVersion || !/^(2\.0|3\.[01]\.\d+)$/.test(specVersion))
    throw new ProcessError(
      'PARSE_ERROR',
      specVersion
        ? `Unsupported version "${specVersion}": OpenAPI 3.0, 3.1 and Swagger 2.0 are supported`
        : 'The document has no "openapi" or "swagger" version field: it is not an OpenAPI specification',
    );

  const entryUrl = sourceUrl ?? `${TEXT_BASE}openapi.${format}`;
  /** @type {Map<string, unknown>} parsed external documents, as written, by URL */
  const documents = new Map();
  /** @type {ProcessError | undefined} the first failure of the resolver (the bundler wraps it) */
  let failure;
  let totalBytes = entryText.length;

  const resolver = {
    order: 1,
    canRead: true,
    /** @param {{url: string}} file */
    async read(file) {
      const url = withoutHash(file.url);
      try {
        if (url.startsWith(TEXT_BASE))
          throw new ProcessError(
            'PARSE_ERROR',
            `The $ref to "${url.slice(TEXT_BASE.length)}" is relative, and a specification given as text has no address to resolve it against`,
          );
        if (!/^https?:\/\//i.test(url))
          throw new ProcessError('PARSE_ERROR', `The $ref to "${url}" is not an http or https URL`);
        if (documents.size >= maxFiles)
          throw new ProcessError('FETCH_ERROR', `The specification references more than ${maxFiles} external files`);
        documents.set(url, undefined);
        const text = await fetchText(url);
        totalBytes += text.length;
        if (totalBytes > maxTotalBytes)
          throw new ProcessError(
            'FETCH_ERROR',
            `The specification and the files it references are larger than ${maxTotalBytes} bytes in all`,
          );
        return text;
      } catch (err) {
        failure ??= err instanceof ProcessError ? err : new ProcessError('FETCH_ERROR', messageOf(err));
        throw err;
      }
    },
  };
  const parser = {
    order: 1,
    allowEmpty: false,
    canParse: true,
    /** @param {{url: string, data: unknown}} file */
    parse(file) {
      const url = withoutHash(file.url);
      const text = typeof file.data === 'string' ? file.data : Buffer.from(/** @type {any} */ (file.data)).toString();
      try {
        const { value } = parseDocument(text, url);
        documents.set(url, structuredClone(value));
        return value;
      } catch (err) {
        failure ??= err instanceof ProcessError ? err : new ProcessError('PARSE_ERROR', messageOf(err));
        throw err;
      }
    },
  };

  /** @type {any} */
  let bundled;
  try {
    const options = /** @type {any} */ ({
      resolve: { external: true, file: false, http: false, folio: resolver },
      parse: { json: false, yaml: false, text: false, binary: false, folio: parser },
      continueOnError: false,
    });
    bundled = await $RefParser.bundle(entryUrl, /** @type {any} */ (structuredClone(entry)), options);
  } catch (err) {
    if (failure) throw failure;
    throw new ProcessError('PARSE_ERROR', `A $ref could not be resolved: ${messageOf(err)}`);
  }

  const result = await validate(structuredClone(bundled), {
    resolve: { external: false },
    validate: { errors: { colorize: false } },
  });
  if (!result.valid) {
    const errors = result.errors.map((e) => ({ message: e.message.slice(0, 2000), code: 'invalid' }));
    const error = new ProcessError(
      'PARSE_ERROR',
      `The specification is not a valid ${result.specification ?? 'OpenAPI'} document`,
      false,
      errors,
    );
    error.count = errors.length + (result.additionalErrors ?? 0);
    throw error;
  }

  // The filesystem: the entry and every external document as written, with what each references.
  const entryName = sourceUrl
    ? decoded(new URL(sourceUrl).pathname.replace(/^.*\//, '')) || `openapi.${format}`
    : `openapi.${format}`;
  /** @type {Record<string, {dir: string, isEntrypoint: boolean, references: string[], filename: string, specification: unknown}>} */
  const filesystem = {};
  const nameOf = (/** @type {string} */ url) => (url === entryUrl ? entryName : filenameOf(url, entryUrl));
  const add = (/** @type {string} */ url, /** @type {unknown} */ value) => {
    const filename = nameOf(url);
    filesystem[filename] = {
      dir: url === entryUrl ? '.' : dirOf(filename),
      isEntrypoint: url === entryUrl,
      references: externalRefs(value, url)
        .filter((u) => u === entryUrl || documents.get(u) !== undefined)
        .map(nameOf),
      filename,
      specification: value,
    };
  };
  add(entryUrl, entry);
  for (const [url, value] of documents) if (value !== undefined && url !== entryUrl) add(url, value);

  const filesystemJson = JSON.stringify(filesystem);
  return {
    type: 'result',
    ok: true,
    format,
    specVersion,
    filesystem: filesystemJson,
    bundle: JSON.stringify(bundled),
    hash: createHash('sha256').update(filesystemJson).digest('hex'),
    files: Object.keys(filesystem).length,
  };
}

run().then(
  (result) => port.postMessage(result),
  (err) => {
    const e =
      err instanceof ProcessError
        ? err
        : new ProcessError('PARSE_ERROR', `The specification could not be processed: ${messageOf(err)}`);
    port.postMessage({
      type: 'result',
      ok: false,
      code: e.code,
      message: e.message,
      retryable: e.retryable,
      errors: e.errors.slice(0, 20),
      count: e.count,
    });
  },
);
