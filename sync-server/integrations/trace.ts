import type { SandboxLogEntry } from '../integration-sandbox/types';
import type { TraceEntry } from './types';

/** Trace entries: what the dispatcher did and what the integration's script wrote to its console. */

export const traceEntry = (now: Date, level: TraceEntry['level'], message: string): TraceEntry => ({
  timestamp: now.toISOString(),
  level,
  message,
});

/** A script's console line as a trace entry (GitBook's levels have no `log`: it is `info`). */
export const fromSandboxLog = (log: SandboxLogEntry): TraceEntry => ({
  timestamp: log.time,
  level: log.level === 'log' ? 'info' : log.level,
  message: log.message,
});

/** A stored trace is for reading, not for exhausting storage: a chatty script's lines are cut. */
export const MAX_TRACE_ENTRIES = 200;
const MAX_MESSAGE_CHARS = 4000;

export function boundedTrace(entries: readonly TraceEntry[]): TraceEntry[] {
  const kept = entries.length > MAX_TRACE_ENTRIES ? entries.slice(0, MAX_TRACE_ENTRIES) : [...entries];
  const cut = kept.map((e) =>
    e.message.length > MAX_MESSAGE_CHARS ? { ...e, message: `${e.message.slice(0, MAX_MESSAGE_CHARS)}…` } : e,
  );
  if (entries.length > kept.length)
    cut.push({
      ...cut[cut.length - 1]!,
      level: 'warn',
      message: `${entries.length - kept.length} more lines left out`,
    });
  return cut;
}
