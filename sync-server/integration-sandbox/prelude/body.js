/* global host, toArrayBuffer, TextEncoder, TextDecoder, URLSearchParams */
// Blob, File, FormData and Headers, and the body helpers Request and Response share: a body is
// held as bytes (Uint8Array) plus the content type its init implied.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function partBytes(part) {
  if (part instanceof Blob) return blobBytes.get(part);
  if (part instanceof ArrayBuffer || ArrayBuffer.isView(part)) return new Uint8Array(toArrayBuffer(part));
  return encoder.encode(String(part));
}

function concatBytes(chunks) {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const blobBytes = new WeakMap();

class Blob {
  constructor(parts = [], options = {}) {
    blobBytes.set(this, concatBytes([...parts].map(partBytes)));
    this.type = options.type ? String(options.type).toLowerCase() : '';
  }
  get size() {
    return blobBytes.get(this).length;
  }
  async arrayBuffer() {
    return blobBytes.get(this).slice().buffer;
  }
  async bytes() {
    return blobBytes.get(this).slice();
  }
  async text() {
    return decoder.decode(blobBytes.get(this));
  }
  slice(start = 0, end = undefined, type = '') {
    return new Blob([blobBytes.get(this).slice(start, end)], { type });
  }
  get [Symbol.toStringTag]() {
    return 'Blob';
  }
}

class File extends Blob {
  constructor(parts, name, options = {}) {
    super(parts, options);
    this.name = String(name);
    this.lastModified = options.lastModified ?? Date.now();
  }
  get [Symbol.toStringTag]() {
    return 'File';
  }
}

function formValue(value, filename) {
  if (value instanceof Blob) {
    if (value instanceof File && filename === undefined) return value;
    return new File([value], filename ?? (value instanceof File ? value.name : 'blob'), { type: value.type });
  }
  return String(value);
}

class FormData {
  #entries = [];
  append(name, value, filename) {
    this.#entries.push([String(name), formValue(value, filename)]);
  }
  set(name, value, filename) {
    name = String(name);
    const at = this.#entries.findIndex(([n]) => n === name);
    const entry = [name, formValue(value, filename)];
    if (at === -1) this.#entries.push(entry);
    else this.#entries = this.#entries.filter(([n], i) => n !== name || i === at).map((e, i) => (i === at ? entry : e));
  }
  delete(name) {
    this.#entries = this.#entries.filter(([n]) => n !== String(name));
  }
  get(name) {
    const found = this.#entries.find(([n]) => n === String(name));
    return found ? found[1] : null;
  }
  getAll(name) {
    return this.#entries.filter(([n]) => n === String(name)).map(([, v]) => v);
  }
  has(name) {
    return this.#entries.some(([n]) => n === String(name));
  }
  forEach(callback, thisArg) {
    for (const [n, v] of this.#entries) callback.call(thisArg, v, n, this);
  }
  *entries() {
    yield* this.#entries.map(([n, v]) => [n, v]);
  }
  *keys() {
    for (const [n] of this.#entries) yield n;
  }
  *values() {
    for (const [, v] of this.#entries) yield v;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  get [Symbol.toStringTag]() {
    return 'FormData';
  }
}

/** multipart/form-data bytes of a FormData, and the content type naming their boundary. */
function encodeMultipart(form) {
  const boundary = `----folio${Array.from(new Uint8Array(host.randomBytes(12)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  const escape = (s) => s.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
  const chunks = [];
  for (const [name, value] of form) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escape(name)}"`;
    if (value instanceof File)
      head += `; filename="${escape(value.name)}"\r\nContent-Type: ${value.type || 'application/octet-stream'}`;
    chunks.push(encoder.encode(`${head}\r\n\r\n`), partBytes(value), encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return { bytes: concatBytes(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

class Headers {
  #map = new Map();
  constructor(init = undefined) {
    if (init === undefined || init === null) return;
    if (init instanceof Headers) for (const [n, v] of init) this.append(n, v);
    else if (typeof init[Symbol.iterator] === 'function')
      for (const pair of init) {
        const [n, v, ...rest] = [...pair];
        if (rest.length || v === undefined) throw new TypeError('Each header must be [name, value]');
        this.append(n, v);
      }
    else for (const n of Object.keys(init)) this.append(n, init[n]);
  }
  #name(name) {
    name = String(name);
    if (!HEADER_NAME.test(name)) throw new TypeError(`Invalid header name: "${name}"`);
    return name.toLowerCase();
  }
  append(name, value) {
    const key = this.#name(name);
    const list = this.#map.get(key) ?? [];
    list.push(String(value).trim());
    this.#map.set(key, list);
  }
  set(name, value) {
    this.#map.set(this.#name(name), [String(value).trim()]);
  }
  delete(name) {
    this.#map.delete(this.#name(name));
  }
  get(name) {
    const list = this.#map.get(this.#name(name));
    return list ? list.join(', ') : null;
  }
  getSetCookie() {
    return [...(this.#map.get('set-cookie') ?? [])];
  }
  has(name) {
    return this.#map.has(this.#name(name));
  }
  forEach(callback, thisArg) {
    for (const [n, v] of this) callback.call(thisArg, v, n, this);
  }
  *entries() {
    for (const key of [...this.#map.keys()].sort()) {
      if (key === 'set-cookie') for (const v of this.#map.get(key)) yield [key, v];
      else yield [key, this.#map.get(key).join(', ')];
    }
  }
  *keys() {
    for (const [n] of this.entries()) yield n;
  }
  *values() {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  get [Symbol.toStringTag]() {
    return 'Headers';
  }
}

/** A body init as bytes and the content type it implies (or null for none); fetch.js uses it. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
function extractBody(init) {
  if (init === undefined || init === null) return { bytes: null, type: null };
  if (typeof init === 'string') return { bytes: encoder.encode(init), type: 'text/plain;charset=UTF-8' };
  if (init instanceof URLSearchParams)
    return { bytes: encoder.encode(init.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (init instanceof FormData) return encodeMultipart(init);
  if (init instanceof Blob) return { bytes: blobBytes.get(init).slice(), type: init.type || null };
  if (init instanceof ArrayBuffer || ArrayBuffer.isView(init))
    return { bytes: new Uint8Array(toArrayBuffer(init).slice(0)), type: null };
  if (typeof init.getReader === 'function')
    throw new TypeError('ReadableStream bodies are not supported in the sandbox');
  return { bytes: encoder.encode(String(init)), type: 'text/plain;charset=UTF-8' };
}

globalThis.Blob = Blob;
globalThis.File = File;
globalThis.FormData = FormData;
globalThis.Headers = Headers;
