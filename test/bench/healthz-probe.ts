/** What probing /healthz during some work saw: the latencies (ascending, ms), failed probes and the elapsed time. */
export interface HealthzProbes {
  latencies: number[];
  failures: number;
  elapsedMs: number;
}

/**
 * GETs `${url}/healthz` one after the other, `gapMs` apart, until `until`
 * settles, and once more after (the probe that falls due while the event
 * loop is blocked runs after it, and then measures the stall). A probe's
 * latency runs from when it was due (the previous answer + the gap) to its
 * answer: with the server in this process, a blocked event loop delays the
 * probe's timer as much as its request, and both count.
 */
export async function probeHealthz(url: string, until: Promise<unknown>, gapMs: number): Promise<HealthzProbes> {
  let done = false;
  void until.finally(() => (done = true)).catch(() => undefined);
  const latencies: number[] = [];
  let failures = 0;
  const start = performance.now();
  let due = start;
  for (;;) {
    const last = done;
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) latencies.push(performance.now() - due);
      else failures++;
    } catch {
      failures++;
    }
    if (last) break;
    due = performance.now() + gapMs;
    await new Promise((r) => setTimeout(r, gapMs));
  }
  await until;
  latencies.sort((x, y) => x - y);
  return { latencies, failures, elapsedMs: performance.now() - start };
}
