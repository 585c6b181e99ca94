import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import type { SandboxLogEntry } from './types';

/**
 * The functions the prelude (prelude/*.js) reaches the host through, as the object `host` it is
 * handed (and then removes from globalThis). Arguments and answers are strings, numbers and
 * ArrayBuffers only; a string that may hold a NUL character goes as JSON (QuickJS hands strings
 * over as C strings, which end at the first NUL). The pure ones are done here with Node's own implementations (WHATWG URL,
 * TextEncoder/TextDecoder, node:crypto); the rest are the run's (run.ts): logging, timers and
 * asynchronous operations (fetch, multipart parsing).
 */
export interface BridgeHooks {
  log(level: SandboxLogEntry['level'], message: string): void;
  /** Starts asynchronous operation `op`; answers its id (the run later settles it in the sandbox). */
  startAsync(op: string, json: string, bytes: Uint8Array | undefined): number;
  abortAsync(id: number): void;
  setTimer(id: number, ms: number): void;
  clearTimer(id: number): void;
}

const URL_PARTS = [
  'href',
  'origin',
  'protocol',
  'username',
  'password',
  'host',
  'hostname',
  'port',
  'pathname',
  'search',
  'hash',
] as const;
const SETTABLE = new Set<string>(URL_PARTS.filter((p) => p !== 'origin'));
const HASHES: Record<string, string> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};
const LEVELS = new Set(['debug', 'info', 'log', 'warn', 'error']);
/** btoa's input and atob's output are "binary strings": one character per byte. */
// eslint-disable-next-line no-control-regex -- NUL is a byte like any other here
const LATIN1 = /^[\u0000-\u00ff]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

function urlJson(url: URL): string {
  return JSON.stringify(Object.fromEntries(URL_PARTS.map((p) => [p, url[p]])));
}

function parseUrl(input: string, base?: string): URL {
  try {
    return new URL(input, base);
  } catch {
    throw new TypeError(`Invalid URL: ${input}`);
  }
}

function hashOf(name: string): string {
  const hash = HASHES[name];
  if (!hash) throw new TypeError(`Unsupported hash ${name}`);
  return hash;
}

/** A copy of an ArrayBuffer the script handed over (its memory is QuickJS's). */
function bytesOf(ctx: QuickJSContext, handle: QuickJSHandle): Uint8Array {
  const lifetime = ctx.getArrayBuffer(handle);
  try {
    return new Uint8Array(lifetime.value);
  } finally {
    lifetime.dispose();
  }
}

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** Builds the `host` object in `ctx`; the caller owns (and disposes) the handle. */
export function createBridge(ctx: QuickJSContext, hooks: BridgeHooks): QuickJSHandle {
  const str = (h: QuickJSHandle) => ctx.getString(h);
  /** A string the prelude sent as JSON (it may hold NULs). */
  const json = (h: QuickJSHandle) => String(JSON.parse(ctx.getString(h)));
  /** A string for the prelude as JSON (it may hold NULs). */
  const toJson = (s: string) => ctx.newString(JSON.stringify(s));
  const isUndefined = (h: QuickJSHandle | undefined) => !h || ctx.typeof(h) === 'undefined';
  const fns: Record<string, (...args: QuickJSHandle[]) => QuickJSHandle | undefined> = {
    log: (level, message) => {
      const l = str(level);
      hooks.log(LEVELS.has(l) ? (l as SandboxLogEntry['level']) : 'log', json(message));
      return undefined;
    },
    utf8Encode: (text) => ctx.newArrayBuffer(arrayBuffer(Buffer.from(json(text), 'utf8'))),
    utf8Decode: (bytes, fatal, ignoreBOM) =>
      toJson(
        new TextDecoder('utf-8', { fatal: ctx.dump(fatal) === true, ignoreBOM: ctx.dump(ignoreBOM) === true }).decode(
          bytesOf(ctx, bytes),
        ),
      ),
    btoa: (text) => {
      const s = json(text);
      if (!LATIN1.test(s)) throw new Error('InvalidCharacterError: the string contains characters outside Latin-1');
      return ctx.newString(Buffer.from(s, 'latin1').toString('base64'));
    },
    atob: (text) => {
      const s = str(text).replace(/[\t\n\f\r ]/g, '');
      if (!BASE64.test(s)) throw new Error('InvalidCharacterError: the string is not correctly encoded');
      return toJson(Buffer.from(s, 'base64').toString('latin1'));
    },
    url: (input, base) => ctx.newString(urlJson(parseUrl(str(input), isUndefined(base) ? undefined : str(base)))),
    urlSet: (href, part, value) => {
      const p = str(part);
      if (!SETTABLE.has(p)) throw new TypeError(`URL has no settable ${p}`);
      const v = str(value);
      const url = p === 'href' ? parseUrl(v) : new URL(str(href));
      if (p !== 'href') (url as unknown as Record<string, string>)[p] = v;
      return ctx.newString(urlJson(url));
    },
    randomBytes: (n) => ctx.newArrayBuffer(arrayBuffer(randomBytes(Math.min(65536, Math.max(0, ctx.getNumber(n)))))),
    randomUUID: () => ctx.newString(randomUUID()),
    digest: (name, data) =>
      ctx.newArrayBuffer(
        arrayBuffer(
          createHash(hashOf(str(name)))
            .update(bytesOf(ctx, data))
            .digest(),
        ),
      ),
    hmac: (name, key, data) =>
      ctx.newArrayBuffer(
        arrayBuffer(
          createHmac(hashOf(str(name)), bytesOf(ctx, key))
            .update(bytesOf(ctx, data))
            .digest(),
        ),
      ),
    startAsync: (op, json, bytes) =>
      ctx.newNumber(hooks.startAsync(str(op), str(json), isUndefined(bytes) ? undefined : bytesOf(ctx, bytes!))),
    abortAsync: (id) => {
      hooks.abortAsync(ctx.getNumber(id));
      return undefined;
    },
    setTimer: (id, ms) => {
      hooks.setTimer(ctx.getNumber(id), ctx.getNumber(ms));
      return undefined;
    },
    clearTimer: (id) => {
      hooks.clearTimer(ctx.getNumber(id));
      return undefined;
    },
  };
  const host = ctx.newObject();
  for (const [name, fn] of Object.entries(fns)) {
    const handle = ctx.newFunction(name, fn);
    ctx.setProp(host, name, handle);
    handle.dispose();
  }
  return host;
}
