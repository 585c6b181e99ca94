/* global host */
// URL parsed and edited by the host's WHATWG URL implementation (the bridge answers the parts as
// JSON); URLSearchParams is plain JS over application/x-www-form-urlencoded.

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
];

/** application/x-www-form-urlencoded byte serializer: what the URL standard leaves unescaped. */
function formEncode(text) {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function formDecode(text) {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A stray % is kept as it is, as browsers do.
    return spaced.replace(/%([0-9a-fA-F]{2})/g, (m, hex) => String.fromCharCode(parseInt(hex, 16)));
  }
}

class URLSearchParams {
  #list = [];
  #onChange;
  constructor(init = '', onChange = undefined) {
    if (typeof init === 'object' && init !== null) {
      const entries = typeof init[Symbol.iterator] === 'function' ? init : Object.entries(init);
      for (const pair of entries) {
        const [name, value, ...rest] = [...pair];
        if (rest.length || value === undefined) throw new TypeError('Each pair must be [name, value]');
        this.#list.push([String(name), String(value)]);
      }
    } else {
      this.#parse(String(init));
    }
    this.#onChange = onChange;
  }
  #parse(text) {
    this.#list = [];
    for (const part of (text.startsWith('?') ? text.slice(1) : text).split('&')) {
      if (!part) continue;
      const at = part.indexOf('=');
      const name = at === -1 ? part : part.slice(0, at);
      const value = at === -1 ? '' : part.slice(at + 1);
      this.#list.push([formDecode(name), formDecode(value)]);
    }
  }
  /** Called by URL when its search changes. */
  _reset(text) {
    this.#parse(text);
  }
  #changed() {
    if (this.#onChange) this.#onChange(this.toString());
  }
  get size() {
    return this.#list.length;
  }
  append(name, value) {
    this.#list.push([String(name), String(value)]);
    this.#changed();
  }
  delete(name, value) {
    name = String(name);
    this.#list = this.#list.filter(([n, v]) => n !== name || (value !== undefined && v !== String(value)));
    this.#changed();
  }
  get(name) {
    const found = this.#list.find(([n]) => n === String(name));
    return found ? found[1] : null;
  }
  getAll(name) {
    return this.#list.filter(([n]) => n === String(name)).map(([, v]) => v);
  }
  has(name, value) {
    return this.#list.some(([n, v]) => n === String(name) && (value === undefined || v === String(value)));
  }
  set(name, value) {
    name = String(name);
    const at = this.#list.findIndex(([n]) => n === name);
    if (at === -1) this.#list.push([name, String(value)]);
    else {
      this.#list[at][1] = String(value);
      this.#list = this.#list.filter(([n], i) => n !== name || i <= at);
    }
    this.#changed();
  }
  sort() {
    // Stable sort by code units, as the standard asks.
    this.#list = this.#list
      .map((e, i) => [e, i])
      .sort(([a, i], [b, j]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j))
      .map(([e]) => e);
    this.#changed();
  }
  forEach(callback, thisArg) {
    for (const [n, v] of this.#list) callback.call(thisArg, v, n, this);
  }
  *entries() {
    for (const [n, v] of this.#list) yield [n, v];
  }
  *keys() {
    for (const [n] of this.#list) yield n;
  }
  *values() {
    for (const [, v] of this.#list) yield v;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  toString() {
    return this.#list.map(([n, v]) => `${formEncode(n)}=${formEncode(v)}`).join('&');
  }
  get [Symbol.toStringTag]() {
    return 'URLSearchParams';
  }
}

/** Each URL's parts (as the host parsed them) and its searchParams, out of the script's reach. */
const urlState = new WeakMap();

function reparse(url, href, part, value) {
  const state = urlState.get(url);
  state.parts = JSON.parse(host.urlSet(href, part, value));
  if (part !== 'search' && part !== 'href') return;
  state.searchParams._reset(state.parts.search);
}

class URL {
  constructor(url, base) {
    const parts = JSON.parse(host.url(String(url), base === undefined ? undefined : String(base)));
    const state = { parts, searchParams: undefined };
    urlState.set(this, state);
    state.searchParams = new URLSearchParams(parts.search, (query) => {
      state.parts = JSON.parse(host.urlSet(state.parts.href, 'search', query));
    });
  }
  static canParse(url, base) {
    try {
      new URL(url, base);
      return true;
    } catch {
      return false;
    }
  }
  static parse(url, base) {
    try {
      return new URL(url, base);
    } catch {
      return null;
    }
  }
  get searchParams() {
    return urlState.get(this).searchParams;
  }
  toString() {
    return urlState.get(this).parts.href;
  }
  toJSON() {
    return urlState.get(this).parts.href;
  }
  get [Symbol.toStringTag]() {
    return 'URL';
  }
}
for (const part of URL_PARTS) {
  Object.defineProperty(URL.prototype, part, {
    configurable: true,
    enumerable: true,
    get() {
      return urlState.get(this).parts[part];
    },
    set:
      part === 'origin'
        ? undefined
        : function (value) {
            reparse(this, urlState.get(this).parts.href, part, String(value));
          },
  });
}

globalThis.URL = URL;
globalThis.URLSearchParams = URLSearchParams;
