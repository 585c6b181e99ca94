/**
 * Waiting in tests: the server, the clients and the UI converge
 * asynchronously, so a test polls for the state it expects (with a deadline
 * and a description that names what never happened) instead of sleeping.
 */

/** Polls `check` every `intervalMs` until it returns something truthy, and returns that; throws after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  what = 'condition',
  intervalMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/**
 * `waitFor` as the browser tests call it: `what` first, a longer default
 * deadline, and a slower poll (each check is a round trip to Chromium).
 */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  await waitFor(check, timeoutMs, what, 50);
}

/** Resolves after `ms` milliseconds (for "nothing else happens meanwhile" checks, not for waiting on a state). */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
