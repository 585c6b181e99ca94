/**
 * What the integration sandbox takes and gives (issue 32): an integration's bundled script (a
 * Workers-style ES module, `export default { fetch(request, env, ctx) }`, as GitBook's CLI bundles
 * it) gets one HTTP request — the dispatcher's multipart event — and answers one response. The script
 * runs in QuickJS compiled to WebAssembly, off the main thread: it reaches nothing of the host but
 * what `SandboxHost` offers.
 */

/** An HTTP request or response body as plain data (it crosses a thread boundary). */
export interface SandboxHttpMessage {
  headers: [string, string][];
  body: Uint8Array;
}

export interface SandboxRequest extends SandboxHttpMessage {
  method: string;
  url: string;
}

export interface SandboxResponse extends SandboxHttpMessage {
  status: number;
  statusText?: string;
}

/** One line of an event's trace: what the script wrote to its console, and what the sandbox reports. */
export interface SandboxLogEntry {
  /** ISO time the entry was written. */
  time: string;
  level: 'debug' | 'info' | 'log' | 'warn' | 'error';
  message: string;
}

/** The host's side of the sandbox: the one way out of it. */
export interface SandboxHost {
  /**
   * Performs a `fetch` the script made (the dispatcher routes calls to this server's own API
   * in-process and everything else through the outbound fetcher). Rejecting makes the script's
   * fetch reject with a TypeError carrying the message.
   */
  fetch(request: SandboxRequest, signal: AbortSignal): Promise<SandboxResponse>;
}

export interface SandboxLimits {
  /** QuickJS heap limit for one run (bytes). */
  memoryBytes: number;
  /** CPU time the script may spend running (ms), not counting time waiting on the host's fetches. */
  cpuMs: number;
  /** Wall time of a whole run, fetches included (ms): GitBook's workers stop an event at about 30 s. */
  wallMs: number;
}

/** Why a run did not produce a response. */
export type SandboxFailure =
  | 'timeout' // cpuMs or wallMs ran out (an endless loop, a fetch that never ends)
  | 'memory' // memoryBytes ran out
  | 'error' // the script threw, or its module did not evaluate
  | 'no-handler' // the module has no default export with a fetch method
  | 'bad-response'; // the handler resolved to something that is not a Response

export type SandboxOutcome =
  | { ok: true; response: SandboxResponse; logs: SandboxLogEntry[] }
  | { ok: false; failure: SandboxFailure; message: string; logs: SandboxLogEntry[] };

/** Runs scripts; one per process (server.ts builds it), workers started lazily, stopped by `close`. */
export interface IntegrationSandbox {
  run(
    script: string,
    request: SandboxRequest,
    host: SandboxHost,
    options?: { limits?: Partial<SandboxLimits>; signal?: AbortSignal },
  ): Promise<SandboxOutcome>;
  close(): Promise<void>;
}
