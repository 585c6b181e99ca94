/* global host, setTimeout */
/* exported fireTimer */
// DOMException, Event/EventTarget (what AbortSignal needs), AbortController/AbortSignal, timers
// (the worker's own timers; the run's wall time bounds them) and queueMicrotask.

const DOM_EXCEPTION_CODES = {
  AbortError: 20,
  TimeoutError: 23,
  DataCloneError: 25,
  InvalidCharacterError: 5,
  SyntaxError: 12,
};

class DOMException extends Error {
  constructor(message = '', name = 'Error') {
    super(message);
    Object.defineProperty(this, 'name', { value: name, configurable: true, writable: true });
  }
  get code() {
    return DOM_EXCEPTION_CODES[this.name] ?? 0;
  }
}

class Event {
  constructor(type, init = {}) {
    this.type = String(type);
    this.bubbles = Boolean(init.bubbles);
    this.cancelable = Boolean(init.cancelable);
    this.defaultPrevented = false;
    this.target = null;
    this.currentTarget = null;
    this.timeStamp = Date.now();
  }
  preventDefault() {
    if (this.cancelable) this.defaultPrevented = true;
  }
  stopPropagation() {}
  stopImmediatePropagation() {}
}

const listenersOf = new WeakMap();

class EventTarget {
  constructor() {
    listenersOf.set(this, new Map());
  }
  addEventListener(type, listener, options = {}) {
    if (!listener) return;
    const all = listenersOf.get(this);
    const list = all.get(type) ?? [];
    if (list.some((l) => l.listener === listener)) return;
    list.push({ listener, once: typeof options === 'object' && Boolean(options.once) });
    all.set(type, list);
  }
  removeEventListener(type, listener) {
    const all = listenersOf.get(this);
    all.set(
      type,
      (all.get(type) ?? []).filter((l) => l.listener !== listener),
    );
  }
  dispatchEvent(event) {
    event.target = this;
    event.currentTarget = this;
    const handler = this[`on${event.type}`];
    if (typeof handler === 'function') handler.call(this, event);
    for (const l of [...(listenersOf.get(this).get(event.type) ?? [])]) {
      if (l.once) this.removeEventListener(event.type, l.listener);
      if (typeof l.listener === 'function') l.listener.call(this, event);
      else l.listener.handleEvent(event);
    }
    return !event.defaultPrevented;
  }
}

class AbortSignal extends EventTarget {
  constructor() {
    super();
    this.aborted = false;
    this.reason = undefined;
    this.onabort = null;
  }
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
  static abort(reason) {
    const controller = new AbortController();
    controller.abort(reason);
    return controller.signal;
  }
  static timeout(ms) {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
    return controller.signal;
  }
  static any(signals) {
    const controller = new AbortController();
    for (const s of signals) {
      if (s.aborted) {
        controller.abort(s.reason);
        break;
      }
      s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
    }
    return controller.signal;
  }
}

class AbortController {
  constructor() {
    this.signal = new AbortSignal();
  }
  abort(reason = new DOMException('This operation was aborted', 'AbortError')) {
    const signal = this.signal;
    if (signal.aborted) return;
    signal.aborted = true;
    signal.reason = reason;
    signal.dispatchEvent(new Event('abort'));
  }
}

// Timers: the host keeps one real timer per id and calls fireTimer(id) when it is due.
const timers = new Map();
let nextTimerId = 1;

function addTimer(callback, ms, args, repeat) {
  if (typeof callback !== 'function') throw new TypeError('The callback must be a function');
  const id = nextTimerId++;
  const delay = Math.max(0, Number(ms) || 0);
  timers.set(id, { callback, args, repeat, delay });
  host.setTimer(id, delay);
  return id;
}

function clearTimer(id) {
  if (timers.delete(Number(id))) host.clearTimer(Number(id));
}

/** Called by the host when timer `id` is due (invoke.js hands it over). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
function fireTimer(id) {
  const timer = timers.get(id);
  if (!timer) return;
  if (timer.repeat) host.setTimer(id, timer.delay);
  else timers.delete(id);
  timer.callback(...timer.args);
}

globalThis.DOMException = DOMException;
globalThis.Event = Event;
globalThis.EventTarget = EventTarget;
globalThis.AbortController = AbortController;
globalThis.AbortSignal = AbortSignal;
globalThis.setTimeout = (callback, ms, ...args) => addTimer(callback, ms, args, false);
globalThis.setInterval = (callback, ms, ...args) => addTimer(callback, ms, args, true);
globalThis.clearTimeout = clearTimer;
globalThis.clearInterval = clearTimer;
globalThis.queueMicrotask = (callback) => {
  if (typeof callback !== 'function') throw new TypeError('The callback must be a function');
  Promise.resolve().then(() => callback());
};
