/* global Request, Response, console, bodyState, settleAsync, fireTimer */
// The entry points the worker calls (the prelude's value; never on globalThis): invoke hands the
// module's default export the request, then the worker polls the run's state as it runs jobs.

function describeError(err) {
  if (err instanceof Error) return { message: `${err.name}: ${err.message}`, stack: String(err.stack ?? '') };
  try {
    return { message: `Uncaught ${typeof err === 'string' ? err : JSON.stringify(err)}`, stack: '' };
  } catch {
    return { message: `Uncaught ${String(err)}`, stack: '' };
  }
}

function invoke(namespace, method, url, headersJson, body) {
  const run = { state: 'pending', waits: [], waitsDone: false, response: undefined, body: undefined };
  const ctx = {
    waitUntil(promise) {
      run.waits.push(
        Promise.resolve(promise).catch((err) => console.error(`waitUntil: ${describeError(err).message}`)),
      );
    },
    passThroughOnException() {},
  };
  Promise.resolve(namespace)
    .then(async (ns) => {
      const handler = ns && ns.default;
      if (!handler || typeof handler.fetch !== 'function') {
        run.state = 'no-handler';
        run.message = 'The script has no default export with a fetch method';
        return;
      }
      const request = new Request(url, {
        method,
        headers: JSON.parse(headersJson),
        body: body.byteLength ? body : null,
      });
      const response = await handler.fetch(request, {}, ctx);
      if (!(response instanceof Response)) {
        run.state = 'bad-response';
        run.message = `The handler resolved to ${Object.prototype.toString.call(response)}, not a Response`;
        return;
      }
      const bytes = bodyState.get(response).bytes;
      run.response = { status: response.status, statusText: response.statusText, headers: [...response.headers] };
      run.body = bytes ? bytes.slice().buffer : new ArrayBuffer(0);
      run.state = 'ok';
    })
    .catch((err) => {
      run.state = 'error';
      Object.assign(run, describeError(err));
    })
    .then(async () => {
      // waitUntil may be called while earlier promises run: wait until no new one arrives.
      for (let seen = -1; seen !== run.waits.length;) {
        seen = run.waits.length;
        await Promise.all(run.waits);
      }
      run.waitsDone = true;
    });
  return run;
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the worker's wrapper returns it
const entryPoints = {
  invoke,
  /** The run's state as JSON (without the body, handed over by takeBody). */
  poll(run) {
    return JSON.stringify({
      state: run.state,
      message: run.message,
      stack: run.stack,
      response: run.response,
      waitsDone: run.waitsDone,
    });
  },
  takeBody(run) {
    return run.body;
  },
  settleAsync,
  fireTimer,
};
