/* global host, Blob, File, FormData, Headers, URL, URLSearchParams, AbortController, extractBody, decoder */
// Request, Response and fetch. A body is bytes; fetch and multipart parsing are asynchronous host
// operations: startAsync gives an id, and the host later calls settleAsync(id, ...) with the answer.

const pendingOps = new Map();

/** Starts host operation `op`; resolves with { value, bytes } or rejects with a TypeError. */
function hostAsync(op, args, bytes, signal) {
  return new Promise((resolve, reject) => {
    const id = host.startAsync(op, JSON.stringify(args), bytes);
    pendingOps.set(id, { resolve, reject });
    if (signal)
      signal.addEventListener('abort', () => {
        if (!pendingOps.delete(id)) return;
        host.abortAsync(id);
        reject(signal.reason);
      });
  });
}

/** Called by the host when operation `id` ends (invoke.js hands it over). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
function settleAsync(id, ok, json, bytes) {
  const pending = pendingOps.get(id);
  if (!pending) return;
  pendingOps.delete(id);
  if (ok) pending.resolve({ value: JSON.parse(json), bytes });
  else pending.reject(new TypeError(json));
}

const bodyState = new WeakMap();

function initBody(target, init, headers) {
  const { bytes, type } = extractBody(init);
  if (type && !headers.has('content-type')) headers.set('content-type', type);
  bodyState.set(target, { bytes, used: false });
}

/** The body's bytes, once: a second read is a TypeError, as in browsers. */
function consume(target) {
  const state = bodyState.get(target);
  if (state.used) return Promise.reject(new TypeError('Body has already been used'));
  state.used = true;
  return Promise.resolve(state.bytes ?? new Uint8Array(0));
}

async function parseFormData(target) {
  const type = target.headers.get('content-type') ?? '';
  const bytes = await consume(target);
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    const form = new FormData();
    for (const [n, v] of new URLSearchParams(decoder.decode(bytes))) form.append(n, v);
    return form;
  }
  if (!/^multipart\/form-data/i.test(type))
    throw new TypeError(`Could not parse content as FormData (${type || 'no content type'})`);
  const { value, bytes: files } = await hostAsync('formData', { contentType: type }, bytes.slice().buffer);
  const form = new FormData();
  const all = new Uint8Array(files);
  for (const entry of value) {
    if (entry.filename === undefined) form.append(entry.name, entry.value);
    else
      form.append(entry.name, new File([all.subarray(entry.start, entry.end)], entry.filename, { type: entry.type }));
  }
  return form;
}

const bodyMethods = {
  get bodyUsed() {
    return bodyState.get(this).used;
  },
  get body() {
    const state = bodyState.get(this);
    if (!state.bytes) return null;
    // Enough of a ReadableStream for code that reads a body chunk by chunk: one chunk.
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the reader reads this body
    const owner = this;
    return {
      locked: false,
      getReader() {
        let done = false;
        return {
          async read() {
            if (done) return { done: true, value: undefined };
            done = true;
            return { done: false, value: await consume(owner) };
          },
          releaseLock() {},
          async cancel() {},
          closed: Promise.resolve(),
        };
      },
      async *[Symbol.asyncIterator]() {
        yield await consume(owner);
      },
    };
  },
  async arrayBuffer() {
    return (await consume(this)).slice().buffer;
  },
  async bytes() {
    return (await consume(this)).slice();
  },
  async text() {
    return decoder.decode(await consume(this));
  },
  async json() {
    return JSON.parse(decoder.decode(await consume(this)));
  },
  async blob() {
    return new Blob([await consume(this)], { type: this.headers.get('content-type') ?? '' });
  },
  formData() {
    return parseFormData(this);
  },
};

function mixBody(Class) {
  for (const key of Object.keys(Object.getOwnPropertyDescriptors(bodyMethods)))
    Object.defineProperty(Class.prototype, key, Object.getOwnPropertyDescriptor(bodyMethods, key));
}

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'];

class Request {
  constructor(input, init = {}) {
    const from = input instanceof Request ? input : null;
    this.url = from ? from.url : new URL(String(input)).href;
    const method = String(init.method ?? (from ? from.method : 'GET'));
    this.method = METHODS.includes(method.toUpperCase()) ? method.toUpperCase() : method;
    this.headers = new Headers(init.headers ?? (from ? from.headers : undefined));
    this.signal = init.signal ?? (from ? from.signal : new AbortController().signal);
    this.redirect = init.redirect ?? (from ? from.redirect : 'follow');
    this.credentials = init.credentials ?? 'same-origin';
    this.cache = init.cache ?? 'default';
    this.mode = init.mode ?? 'cors';
    let body = init.body;
    if (body === undefined && from) body = bodyState.get(from).bytes;
    if (body !== undefined && body !== null && (this.method === 'GET' || this.method === 'HEAD')) {
      // An empty body is no body: @gitbook/runtime rebuilds a fetch event's request with the
      // dispatcher's `fetch-body` field, an empty string for a GET.
      if (extractBody(body).bytes.length) throw new TypeError('Request with GET/HEAD method cannot have body.');
      body = null;
    }
    initBody(this, body, this.headers);
  }
  clone() {
    if (this.bodyUsed) throw new TypeError('Request body is already used');
    return new Request(this);
  }
  get [Symbol.toStringTag]() {
    return 'Request';
  }
}
mixBody(Request);

class Response {
  constructor(body = null, init = {}) {
    const status = init.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599)
      throw new RangeError(`The status provided (${status}) must be 200-599`);
    this.status = status;
    this.statusText = String(init.statusText ?? '');
    this.headers = new Headers(init.headers);
    this.type = 'default';
    this.url = '';
    this.redirected = false;
    if (body !== null && body !== undefined && [101, 204, 205, 304].includes(status))
      throw new TypeError(`Response with null body status ${status} cannot have body`);
    initBody(this, body, this.headers);
  }
  get ok() {
    return this.status >= 200 && this.status < 300;
  }
  clone() {
    if (this.bodyUsed) throw new TypeError('Response body is already used');
    const copy = new Response(bodyState.get(this).bytes, this);
    copy.url = this.url;
    copy.redirected = this.redirected;
    return copy;
  }
  static json(data, init = {}) {
    const headers = new Headers(init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError('The data is not JSON-serializable');
    return new Response(text, { ...init, headers });
  }
  static redirect(url, status = 302) {
    if (![301, 302, 303, 307, 308].includes(status)) throw new RangeError(`Invalid redirect status ${status}`);
    return new Response(null, { status, headers: { location: new URL(String(url)).href } });
  }
  static error() {
    const response = new Response(null, { status: 200 });
    response.type = 'error';
    return response;
  }
  get [Symbol.toStringTag]() {
    return 'Response';
  }
}
mixBody(Response);

async function fetch(input, init = undefined) {
  const request = new Request(input, init);
  if (request.signal.aborted) throw request.signal.reason;
  const bytes = bodyState.get(request).bytes;
  const { value, bytes: body } = await hostAsync(
    'fetch',
    { method: request.method, url: request.url, headers: [...request.headers], redirect: request.redirect },
    bytes ? bytes.slice().buffer : undefined,
    request.signal,
  );
  const nullBody = [101, 204, 205, 304].includes(value.status);
  const response = new Response(nullBody ? null : body, {
    status: value.status < 200 ? 200 : value.status,
    statusText: value.statusText,
    headers: value.headers,
  });
  if (value.status < 200) response.status = value.status;
  response.url = request.url;
  return response;
}

globalThis.Request = Request;
globalThis.Response = Response;
globalThis.fetch = fetch;
