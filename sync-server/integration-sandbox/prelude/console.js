/* global host */
// console.* inside the sandbox: each call becomes one line of the run's log (the worker truncates
// long lines and caps the count). Values are formatted here, where they live.

function formatValue(value, depth) {
  if (typeof value === 'string') return depth === 0 ? value : JSON.stringify(value);
  if (value instanceof Error) return value.stack ? `${value.name}: ${value.message}\n${value.stack}` : String(value);
  if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`;
  if (typeof value !== 'object' || value === null) return String(value);
  try {
    const seen = new WeakSet();
    return JSON.stringify(value, (_key, v) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[Circular]';
        seen.add(v);
      }
      return v;
    });
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function formatArgs(args) {
  return args.map((a) => formatValue(a, 0)).join(' ');
}

const sandboxConsole = {};
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  sandboxConsole[level] = (...args) => host.log(level, JSON.stringify(formatArgs(args)));
}
sandboxConsole.trace = sandboxConsole.debug;
globalThis.console = sandboxConsole;
