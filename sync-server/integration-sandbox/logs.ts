import type { SandboxLogEntry } from './types';

/** Longest message kept (characters); longer ones are cut with a note of how much was dropped. */
export const MAX_LOG_MESSAGE = 4096;
/** Entries kept per run; later ones are counted, and one last entry says how many were dropped. */
export const MAX_LOG_ENTRIES = 200;

/**
 * A run's trace: what the script writes to its console and what the sandbox reports, bounded so a
 * script logging in a loop can neither grow the worker nor flood the event's record.
 */
export class RunLog {
  private readonly entries: SandboxLogEntry[] = [];
  private dropped = 0;

  add(level: SandboxLogEntry['level'], message: string): void {
    if (this.entries.length >= MAX_LOG_ENTRIES) {
      this.dropped++;
      return;
    }
    const text =
      message.length > MAX_LOG_MESSAGE
        ? `${message.slice(0, MAX_LOG_MESSAGE)}… (${message.length - MAX_LOG_MESSAGE} more characters)`
        : message;
    this.entries.push({ time: new Date().toISOString(), level, message: text });
  }

  /** The entries, with a last one counting those dropped over the cap. */
  list(): SandboxLogEntry[] {
    if (!this.dropped) return [...this.entries];
    return [
      ...this.entries,
      { time: new Date().toISOString(), level: 'warn', message: `${this.dropped} more log entries were dropped` },
    ];
  }
}
