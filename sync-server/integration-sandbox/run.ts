import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import { createBridge } from './host-bridge';
import { RunLog } from './logs';
import type { SandboxFailure, SandboxLimits, SandboxOutcome, SandboxRequest, SandboxResponse } from './types';

/** QuickJS's own stack limit: well inside the worker thread's stack (wasm frames use it too). */
const QUICKJS_STACK_BYTES = 384 * 1024;

/** What a run needs of its worker: the way out to the main thread, and whether it was cancelled. */
export interface RunIo {
  fetch(request: SandboxRequest): { answer: Promise<SandboxResponse>; abort(): void };
  /** Set when the run's caller gave up; the run is interrupted at once. */
  cancelled(): boolean;
  /** Resolves when `cancelled()` turns true (wakes a run waiting on timers or fetches). */
  onCancel(wake: () => void): void;
}

export interface RunResult {
  outcome: SandboxOutcome;
  /** The QuickJS module may be damaged (out of memory, interrupted, a host-side fault): use a fresh one. */
  poisoned: boolean;
}

interface RunState {
  state: 'pending' | 'ok' | 'error' | 'no-handler' | 'bad-response';
  message?: string;
  stack?: string;
  response?: { status: number; statusText: string; headers: [string, string][] };
  waitsDone: boolean;
}

/** Why a run stopped early, when it did. */
type Stop = { failure: SandboxFailure; message: string } | undefined;

function isOutOfMemory(text: string | undefined): boolean {
  return Boolean(text && /out of memory/i.test(text));
}

/**
 * Runs `script` (a Workers-style ES module) on `request` in a fresh QuickJS runtime of `wasm`:
 * evaluates the prelude (the Web APIs), the module, then calls `default.fetch(request, env, ctx)`
 * and drives its promises, timers and fetches until it answers and its `ctx.waitUntil` promises
 * settle — within the memory, CPU and wall-time limits. Never rejects.
 */
export async function runInQuickJS(
  wasm: QuickJSWASMModule,
  prelude: string,
  script: string,
  request: SandboxRequest,
  limits: SandboxLimits,
  io: RunIo,
): Promise<RunResult> {
  const log = new RunLog();
  const started = performance.now();
  const wallDeadline = started + limits.wallMs;
  let cpuUsed = 0;
  let sliceStart = 0;
  let stop: Stop;
  let poisoned = false;
  /** `stop` as read now (it is set by the interrupt handler, behind TypeScript's narrowing). */
  const stopped = (): Stop => stop;

  const rt = wasm.newRuntime();
  rt.setMemoryLimit(limits.memoryBytes);
  rt.setMaxStackSize(QUICKJS_STACK_BYTES);
  rt.setInterruptHandler(() => {
    if (stop) return true;
    const now = performance.now();
    if (io.cancelled()) stop = { failure: 'timeout', message: 'The run was cancelled' };
    else if (cpuUsed + (now - sliceStart) > limits.cpuMs)
      stop = { failure: 'timeout', message: `The script ran for more than ${limits.cpuMs} ms of CPU time` };
    else if (now > wallDeadline) stop = { failure: 'timeout', message: `The run took more than ${limits.wallMs} ms` };
    return Boolean(stop);
  });
  rt.setModuleLoader((name) => ({ error: new Error(`Cannot find module '${name}' (the sandbox loads no modules)`) }));
  const ctx = rt.newContext();

  // Work queued for the QuickJS side (fetch answers, due timers) and the wake-up of the loop below.
  const tasks: (() => void)[] = [];
  let wake: () => void = () => undefined;
  const post = (task: () => void) => {
    tasks.push(task);
    wake();
  };
  const timers = new Map<number, NodeJS.Timeout>();
  const operations = new Map<number, () => void>();
  let nextOperation = 1;
  const handles: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle) => (handles.push(h), h);

  /** Runs `fn` against QuickJS, counting its time as the script's CPU time. */
  const enter = <T>(fn: () => T): T => {
    sliceStart = performance.now();
    try {
      return fn();
    } finally {
      cpuUsed += performance.now() - sliceStart;
    }
  };
  const errorText = (h: QuickJSHandle): { message: string; stack?: string } => {
    const e = ctx.dump(h) as unknown;
    h.dispose();
    if (e && typeof e === 'object' && 'message' in e) {
      const err = e as { name?: string; message: string; stack?: string };
      return { message: `${err.name ?? 'Error'}: ${err.message}`, stack: err.stack };
    }
    return { message: `Uncaught ${String(e)}` };
  };
  /** A QuickJS exception outside the handler's promise: fatal when it is the limits', logged otherwise. */
  const uncaught = (h: QuickJSHandle, where: string) => {
    const { message } = errorText(h);
    if (!stop && isOutOfMemory(message))
      stop = { failure: 'memory', message: `The script ran out of memory (${limits.memoryBytes} bytes)` };
    if (!stop) log.add('error', `Uncaught in ${where}: ${message}`);
  };
  // Handles call() must not dispose: QuickJS's constants.
  const shared = new Set([ctx.undefined, ctx.true, ctx.false, ctx.null]);
  let entry: Record<'invoke' | 'poll' | 'takeBody' | 'settleAsync' | 'fireTimer', QuickJSHandle> | undefined;
  const call = (fn: QuickJSHandle, args: QuickJSHandle[], where: string): QuickJSHandle | undefined => {
    const result = enter(() => ctx.callFunction(fn, ctx.undefined, ...args));
    for (const a of args) if (a.alive && !shared.has(a) && !handles.includes(a)) a.dispose();
    if (result.error) {
      uncaught(result.error, where);
      return undefined;
    }
    return result.value;
  };

  const settle = (id: number, ok: boolean, json: string, body?: Uint8Array) => {
    if (!entry || stop) return;
    const args = [ctx.newNumber(id), ok ? ctx.true : ctx.false, ctx.newString(json)];
    if (body) args.push(ctx.newArrayBuffer(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)));
    call(entry.settleAsync, args, 'a fetch callback')?.dispose();
  };
  const startAsync = (op: string, json: string, bytes: Uint8Array | undefined): number => {
    const id = nextOperation++;
    const done = (ok: boolean, answer: string, body?: Uint8Array) => {
      if (!operations.delete(id)) return;
      post(() => settle(id, ok, answer, body));
    };
    if (op === 'fetch') {
      const args = JSON.parse(json) as { method: string; url: string; headers: [string, string][] };
      const { answer, abort } = io.fetch({ ...args, body: bytes ?? new Uint8Array(0) });
      operations.set(id, abort);
      answer.then(
        (r) =>
          done(true, JSON.stringify({ status: r.status, statusText: r.statusText ?? '', headers: r.headers }), r.body),
        (err: unknown) => done(false, err instanceof Error ? err.message : String(err)),
      );
    } else if (op === 'formData') {
      operations.set(id, () => undefined);
      parseMultipart(bytes ?? new Uint8Array(0), (JSON.parse(json) as { contentType: string }).contentType).then(
        ({ entries, files }) => done(true, JSON.stringify(entries), files),
        (err: unknown) => done(false, err instanceof Error ? err.message : String(err)),
      );
    } else throw new TypeError(`Unknown host operation ${op}`);
    return id;
  };

  const bridge = createBridge(ctx, {
    log: (level, message) => log.add(level, message),
    startAsync,
    abortAsync: (id) => {
      operations.get(id)?.();
      operations.delete(id);
    },
    setTimer: (id, ms) => {
      clearTimeout(timers.get(id));
      // Node's timers take at most 2^31-1 ms; a timer due past the wall time never fires in this run.
      const due = Math.min(ms, 2 ** 31 - 1);
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          post(() => {
            if (entry && !stop) call(entry.fireTimer, [ctx.newNumber(id)], 'a timer callback')?.dispose();
          });
        }, due),
      );
    },
    clearTimer: (id) => {
      clearTimeout(timers.get(id));
      timers.delete(id);
    },
  });
  io.onCancel(() => wake());

  let outcome: SandboxOutcome;
  try {
    ctx.setProp(ctx.global, '__folio', bridge);
    bridge.dispose();
    const preludeResult = enter(() => ctx.evalCode(prelude, 'folio-prelude.js'));
    const entries = keep(ctx.unwrapResult(preludeResult));
    entry = {
      invoke: keep(ctx.getProp(entries, 'invoke')),
      poll: keep(ctx.getProp(entries, 'poll')),
      takeBody: keep(ctx.getProp(entries, 'takeBody')),
      settleAsync: keep(ctx.getProp(entries, 'settleAsync')),
      fireTimer: keep(ctx.getProp(entries, 'fireTimer')),
    };
    outcome = await drive(ctx, script, request, entry);
  } catch (err) {
    // A fault of the host side (QuickJS's heap exhausted while the host copied into it, say).
    poisoned = true;
    const message = err instanceof Error ? err.message : String(err);
    outcome = fail(stop?.failure ?? (isOutOfMemory(message) ? 'memory' : 'error'), stop?.message ?? message);
  } finally {
    for (const t of timers.values()) clearTimeout(t);
    for (const abort of operations.values()) abort();
    operations.clear();
  }
  // A runtime stopped mid-script, or out of memory, keeps objects its broken frames held, and freeing
  // it then aborts the whole wasm module: it is left to the garbage collector with its module instead.
  if (stop || (!outcome.ok && outcome.failure === 'memory')) poisoned = true;
  else
    try {
      for (const h of handles) if (h.alive) h.dispose();
      ctx.dispose();
      rt.dispose();
    } catch {
      poisoned = true;
    }
  return { outcome, poisoned };

  function fail(failure: SandboxFailure, message: string, stack?: string): SandboxOutcome {
    log.add('error', stack && !stack.startsWith(message) ? `${message}\n${stack}` : message);
    return { ok: false, failure, message, logs: log.list() };
  }

  /** Evaluates the module, calls its handler and runs its jobs, timers and fetches to the end. */
  async function drive(
    ctx: QuickJSContext,
    script: string,
    request: SandboxRequest,
    fns: NonNullable<typeof entry>,
  ): Promise<SandboxOutcome> {
    const evaluated = enter(() => ctx.evalCode(script, 'integration.js', { type: 'module' }));
    if (evaluated.error) {
      const { message, stack } = errorText(evaluated.error);
      if (stopped()) return fail(stopped()!.failure, stopped()!.message);
      if (isOutOfMemory(message)) return fail('memory', `The script ran out of memory (${limits.memoryBytes} bytes)`);
      return fail('error', message, stack);
    }
    const namespace = keep(evaluated.value);
    const body = request.body;
    const run = call(
      fns.invoke,
      [
        namespace,
        ctx.newString(request.method),
        ctx.newString(request.url),
        ctx.newString(JSON.stringify(request.headers)),
        ctx.newArrayBuffer(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)),
      ],
      'the handler call',
    );
    if (!run) return fail(stopped()?.failure ?? 'error', stopped()?.message ?? 'The handler could not be called');
    keep(run);
    let state: RunState;
    for (;;) {
      while (tasks.length && !stopped()) tasks.shift()!();
      if (!stopped()) {
        const jobs = enter(() => rt.executePendingJobs());
        if (jobs.error) uncaught(jobs.error, 'a promise job');
      }
      if (stopped()) return fail(stopped()!.failure, stopped()!.message);
      const polled = call(fns.poll, [run], 'poll');
      if (!polled) return fail(stopped()?.failure ?? 'error', stopped()?.message ?? 'The run state could not be read');
      state = JSON.parse(ctx.getString(polled)) as RunState;
      polled.dispose();
      if (state.state !== 'pending' && state.state !== 'ok') {
        const failure = isOutOfMemory(state.message) ? 'memory' : state.state;
        return fail(failure, state.message ?? failure, state.stack);
      }
      if (state.state === 'ok' && state.waitsDone) break;
      if (tasks.length || rt.hasPendingJob()) continue;
      const idle = timers.size === 0 && operations.size === 0;
      const now = performance.now();
      if (idle || now >= wallDeadline) {
        if (state.state === 'pending')
          return idle
            ? fail('error', 'The handler never answered: its promise cannot settle (no timer or fetch is pending)')
            : fail('timeout', `The run took more than ${limits.wallMs} ms`);
        log.add('warn', `ctx.waitUntil promises were still pending when the run ended`);
        break;
      }
      if (io.cancelled()) return fail('timeout', 'The run was cancelled');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wallDeadline - now);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => undefined;
    }
    const bodyHandle = call(fns.takeBody, [run], 'takeBody');
    if (!bodyHandle)
      return fail(stopped()?.failure ?? 'error', stopped()?.message ?? 'The response body could not be read');
    const lifetime = ctx.getArrayBuffer(bodyHandle);
    const responseBody = new Uint8Array(lifetime.value);
    lifetime.dispose();
    bodyHandle.dispose();
    const response = state.response!;
    return {
      ok: true,
      response: {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        body: responseBody,
      },
      logs: log.list(),
    };
  }
}

/** Parses a multipart/form-data body with Node's own (undici's) parser, for request.formData(). */
async function parseMultipart(
  bytes: Uint8Array,
  contentType: string,
): Promise<{ entries: unknown[]; files: Uint8Array }> {
  const form = await new Response(Buffer.from(bytes), { headers: { 'content-type': contentType } }).formData();
  const entries: unknown[] = [];
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const [name, value] of form as unknown as Iterable<[string, string | File]>) {
    if (typeof value === 'string') entries.push({ name, value });
    else {
      const data = new Uint8Array(await value.arrayBuffer());
      entries.push({ name, filename: value.name, type: value.type, start: at, end: at + data.length });
      chunks.push(data);
      at += data.length;
    }
  }
  return { entries, files: Buffer.concat(chunks) };
}
