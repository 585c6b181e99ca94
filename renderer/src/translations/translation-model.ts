import { LANGUAGES, languageName, nativeLanguageName } from '../../../shared/languages';
import { relativeTime } from '../history/time';
import type { RunState, Translation, TranslationEngine } from './translations-api';

/**
 * What the translations dialog says, as pure functions: language names and the choices of the
 * language picker, the state of a translation's latest run in words, its figures, and the engine.
 */

/** "Français (French)", or "English" when both names are the same. */
export function languageLabel(code: string): string {
  const native = nativeLanguageName(code);
  const english = languageName(code);
  return native === english ? native : `${native} (${english})`;
}

/** The languages one may translate into: all but `excluded`, by English name. */
export function languageChoices(excluded: Iterable<string>): { code: string; label: string }[] {
  const skip = new Set(excluded);
  return LANGUAGES.filter((code) => !skip.has(code))
    .map((code) => {
      const [english, native] = [languageName(code), nativeLanguageName(code)];
      return { code, label: english === native ? english : `${english} · ${native}` };
    })
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
}

/** The source space's translations, in the order they were created. */
export function translationsOf(all: Translation[], spaceId: string): Translation[] {
  return all
    .filter((t) => t.source.space === spaceId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** Whether a run is waiting or under way (the dialog then follows it). */
export function isActive(t: Translation): boolean {
  if (t.run) return t.run.state === 'queued' || t.run.state === 'running';
  return t.status === 'pending' || t.status === 'running';
}

export type RunTone = RunState | 'never';

/** The latest run in words: its state, when, and (while it runs) how far it is. */
export interface RunSummary {
  tone: RunTone;
  title: string;
  /** The moment `when` speaks of (ISO), for a <time>. */
  at?: string;
  when?: string;
  /** While it runs: pages done of pages to do (total 0 while the run is still counting). */
  progress?: { done: number; total: number };
}

export function runSummary(t: Translation, now: number = Date.now()): RunSummary {
  const run = t.run;
  if (!run) {
    if (t.status === 'running') return { tone: 'running', title: 'Translating…' };
    if (t.status === 'completed')
      return { tone: 'succeeded', title: 'Translated', at: t.updatedAt, when: relativeTime(t.updatedAt, now) };
    return { tone: 'queued', title: 'Waiting for its first run' };
  }
  const ended = run.endedAt ?? run.startedAt ?? run.createdAt;
  switch (run.state) {
    case 'queued':
      return { tone: 'queued', title: 'Queued', at: run.createdAt, when: `since ${relativeTime(run.createdAt, now)}` };
    case 'running': {
      const started = run.startedAt ?? run.createdAt;
      const progress = run.progress ? { done: run.progress.pages, total: run.progress.totalPages } : undefined;
      return {
        tone: 'running',
        title: 'Translating…',
        at: started,
        when: `started ${relativeTime(started, now)}`,
        ...(progress ? { progress } : {}),
      };
    }
    case 'succeeded': {
      // Pages edited by hand wait in a change request: the translated space is not quite up to date.
      const review = run.review?.pages.length ?? 0;
      const title = review ? `Translated · ${plural(review, 'page')} to review` : 'Up to date';
      return { tone: 'succeeded', title, at: ended, when: relativeTime(ended, now) };
    }
    case 'failed':
      return { tone: 'failed', title: 'Last run failed', at: ended, when: relativeTime(ended, now) };
    case 'cancelled':
      return { tone: 'cancelled', title: 'Last run cancelled', at: ended, when: relativeTime(ended, now) };
  }
}

/** "3 of 5 pages", or "Counting pages…" before the run knows how many. */
export function progressLabel(progress: { done: number; total: number }): string {
  if (progress.total <= 0) return 'Counting pages…';
  return `${progress.done} of ${plural(progress.total, 'page')}`;
}

/** The figures of the latest run and of all runs, or undefined before the first run ended. */
export function statsLines(t: Translation): { latest: string; total: string } | undefined {
  const s = t.stats;
  if (!s || s.runs === 0) return undefined;
  const latestPages = t.run?.pages ?? s.latestPages;
  const latestWords = t.run?.words ?? s.latestWords;
  return {
    latest: `${plural(latestPages, 'page')} · ${plural(latestWords, 'word')}${
      s.latestRunDuration > 0 ? ` · ${duration(s.latestRunDuration)}` : ''
    }`,
    total: `${plural(s.runs, 'run')} · ${plural(s.totalPages, 'page')} · ${plural(s.totalWords, 'word')} in all`,
  };
}

/** Seconds as people say them: "0.4 s", "12 s", "3 min 5 s". */
export function duration(seconds: number): string {
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const min = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return s ? `${min} min ${s} s` : `${min} min`;
}

/** The engine's name, to begin a sentence with. */
export function engineName(engine: TranslationEngine): string {
  return engine.kind === 'openai' ? 'The OpenAI-compatible model' : 'LibreTranslate';
}

/**
 * What the server's engine is, as far as the app can tell: every translation carries it, so any
 * translation of the organization says (undefined: the organization has none yet, so nobody knows).
 */
export function knownEngine(all: Translation[]): TranslationEngine | null | undefined {
  for (const t of all) if (t.engine !== undefined) return t.engine;
  return undefined;
}

export function plural(n: number, one: string): string {
  return `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;
}
