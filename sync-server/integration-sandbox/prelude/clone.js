/* global DOMException */
// structuredClone: the types the structured clone algorithm copies, with cycles and shared
// references kept; functions, symbols and other host objects throw a DataCloneError.

function cloneValue(value, seen) {
  if (typeof value === 'function' || typeof value === 'symbol')
    throw new DOMException(`${String(value)} could not be cloned.`, 'DataCloneError');
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  let copy;
  if (value instanceof Date) copy = new Date(value.getTime());
  else if (value instanceof RegExp) copy = new RegExp(value.source, value.flags);
  else if (value instanceof ArrayBuffer) copy = value.slice(0);
  else if (ArrayBuffer.isView(value)) {
    const buffer = cloneValue(value.buffer, seen);
    const Ctor = value.constructor;
    copy =
      value instanceof DataView
        ? new DataView(buffer, value.byteOffset, value.byteLength)
        : new Ctor(buffer, value.byteOffset, value.length);
  } else if (value instanceof Map) {
    copy = new Map();
    seen.set(value, copy);
    for (const [k, v] of value) copy.set(cloneValue(k, seen), cloneValue(v, seen));
    return copy;
  } else if (value instanceof Set) {
    copy = new Set();
    seen.set(value, copy);
    for (const v of value) copy.add(cloneValue(v, seen));
    return copy;
  } else if (value instanceof Error) {
    copy = new (
      globalThis[value.name] && globalThis[value.name].prototype instanceof Error ? globalThis[value.name] : Error
    )(value.message);
    if (value.stack) copy.stack = value.stack;
  } else if (value instanceof Boolean || value instanceof Number || value instanceof String) {
    copy = Object(value.valueOf());
  } else if (Array.isArray(value)) {
    copy = new Array(value.length);
    seen.set(value, copy);
    for (const key of Object.keys(value)) copy[key] = cloneValue(value[key], seen);
    return copy;
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      throw new DOMException(`${Object.prototype.toString.call(value)} could not be cloned.`, 'DataCloneError');
    copy = {};
    seen.set(value, copy);
    for (const key of Object.keys(value)) copy[key] = cloneValue(value[key], seen);
    return copy;
  }
  seen.set(value, copy);
  return copy;
}

globalThis.structuredClone = (value) => cloneValue(value, new Map());
