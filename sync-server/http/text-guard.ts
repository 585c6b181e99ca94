import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './errors';

/** What is wrong with a string, as the end of a 400's message. */
type Problem = 'nul' | 'surrogate';

const EXPLANATION: Record<Problem, string> = {
  nul: 'must not contain NUL characters (U+0000), which cannot be stored',
  surrogate: 'must be valid Unicode text: it contains an unpaired surrogate (\\uD800-\\uDFFF)',
};

/** `String.prototype.isWellFormed` (Node 20+; not in the ES2022 typings this project compiles against). */
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Whether PostgreSQL (text, jsonb) can store `s` as it is. */
function problemOf(s: string): Problem | undefined {
  if (s.includes('\u0000')) return 'nul';
  // A lone surrogate is not Unicode: jsonb refuses its escape (500), text columns silently store U+FFFD.
  if (!isWellFormed(s)) return 'surrogate';
  return undefined;
}

/** A name as it can be shown in a message: the offending code units as \u escapes. */
const printable = (name: string) =>
  Array.from(name, (c) =>
    c.length === 1 && (c === '\u0000' || (c >= '\uD800' && c <= '\uDFFF'))
      ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
      : c,
  ).join('');

/** A container still to scan; its path is rebuilt from the parents only for the culprit. */
interface Frame {
  value: object;
  parent: Frame | undefined;
  key: string;
}

function pathOf(frame: Frame | undefined, key: string): string {
  const keys = [printable(key)];
  for (let f = frame; f?.parent; f = f.parent) keys.push(printable(f.key));
  return keys.reverse().join('/');
}

const isPlainContainer = (v: unknown): v is object => {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  // JSON bodies are plain objects; query strings have a null prototype. Buffers (uploads) and the like are skipped.
  return proto === Object.prototype || proto === null;
};

/** Checks a string child, or queues a container child; not a closure, so a scan allocates no function. */
function visit(stack: Frame[], frame: Frame, key: string, child: unknown): UnstorableText | undefined {
  if (typeof child === 'string') {
    const problem = problemOf(child);
    if (problem) return { path: pathOf(frame, key), problem, isName: false };
  } else if (isPlainContainer(child)) stack.push({ value: child, parent: frame, key });
  return undefined;
}

/** What is wrong, and where. */
export interface UnstorableText {
  path: string;
  problem: Problem;
  isName: boolean;
}

/**
 * The first string (value or property name) in `root` PostgreSQL cannot
 * store, with where it is. Iterative, so no input can overflow the stack;
 * linear in the size of the input (a 1 MB body takes milliseconds).
 * `anyRecord`: accept a root object whatever its prototype (query strings,
 * path params).
 */
export function findUnstorableText(root: unknown, anyRecord = false): UnstorableText | undefined {
  if (typeof root === 'string') {
    const problem = problemOf(root);
    return problem && { path: '', problem, isName: false };
  }
  // Query strings and path params are flat records whatever their prototype (fast-querystring and the router use their own).
  const isRecord = anyRecord && typeof root === 'object' && root !== null && !ArrayBuffer.isView(root);
  if (!isRecord && !isPlainContainer(root)) return undefined;
  const stack: Frame[] = [{ value: root as object, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const value = frame.value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const found = visit(stack, frame, String(i), value[i]);
        if (found) return found;
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const nameProblem = problemOf(key);
      if (nameProblem) return { path: pathOf(frame, key), problem: nameProblem, isName: true };
      const found = visit(stack, frame, key, record[key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** The parts of a request a route reads, named as Fastify's validation errors name them. */
const PARTS = [
  ['params', (r: FastifyRequest) => r.params],
  ['querystring', (r: FastifyRequest) => r.query],
  ['body', (r: FastifyRequest) => r.body],
] as const;
/** PARTS' first part that does not come from the URL (params and query do). */
const FIRST_NON_URL_PART = PARTS.findIndex(([part]) => part === 'body');

/**
 * Refuses, with a 400 naming the field, any request whose path parameters,
 * query string or body hold a string PostgreSQL cannot store: a NUL byte
 * (neither text nor jsonb can hold U+0000: the query fails, a 500) or a lone
 * surrogate (jsonb refuses it, text silently turns it into U+FFFD). Installed
 * once, before every route's validation and handler, so no string of a
 * request reaches SQL unchecked; routes without schemas are covered too
 * (published sites look their id up with no schema at all).
 */
export function installTextGuard(app: FastifyInstance): void {
  // A callback hook: no promise per request.
  app.addHook('preValidation', (request, _reply, done) => {
    // Path parameters and query come from the URL. Node's HTTP parser refuses control characters and
    // non-ASCII bytes in a request line, so only a percent-escape can put NUL or a surrogate there: a
    // URL without one (every hot read's) needs no scan of either.
    for (let i = request.url.includes('%') ? 0 : FIRST_NON_URL_PART; i < PARTS.length; i++) {
      const [part, read] = PARTS[i]!;
      const found = findUnstorableText(read(request), part !== 'body');
      if (!found) continue;
      const what = found.isName ? `property name ${found.path}` : found.path || part;
      return done(badRequest(`Invalid ${part}: ${what} ${EXPLANATION[found.problem]}`));
    }
    done();
  });
}
