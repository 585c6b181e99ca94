import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import * as Y from 'yjs';
import { DocHub } from '../../sync-server/docs/hub';
import type { Db } from '../../sync-server/store/db';
import { startBenchServer } from './fixture';
import type { BenchOutcome } from './http-load';

/**
 * Cold load of a document whose history is 10,000 small updates (typing into
 * a page): once with the whole history in the update log (no compaction) and
 * once as the hub keeps it (compacted every 500 updates, so at most ~500 log
 * rows remain). A cold load = a new DocHub reading state + log and applying
 * them. Prints figures and writes test-artifacts/bench-cold-load.json.
 */

export const name = 'cold-load';

const UPDATES = 10_000;
const COMPACT_EVERY = 500;
const APPEND_CHUNK = 100;
const LOADS = 5;

/** 10,000 updates as an editor produces them: one character typed (or, 1 in 10, deleted) per update. */
function typingHistory(): { updates: Uint8Array[]; text: string } {
  const doc = new Y.Doc();
  const pages = doc.getMap<Y.Map<unknown>>('pages');
  const page = new Y.Map<unknown>();
  const body = new Y.Text();
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  doc.transact(() => {
    page.set('title', 'Benchmark page');
    page.set('body', body);
    pages.set('page1', page);
  });
  let cursor = 0;
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  while (updates.length < UPDATES) {
    if (random() < 0.1 && cursor > 0) {
      body.delete(--cursor, 1);
    } else {
      if (random() < 0.05) cursor = Math.floor(random() * (body.length + 1));
      body.insert(cursor++, String.fromCharCode(97 + Math.floor(random() * 26)));
    }
  }
  return { updates, text: body.toString() };
}

/** Writes the history into the log, compacting like the hub does when `compact` is set. */
async function store(db: Db, doc: string, updates: Uint8Array[], compact: boolean): Promise<void> {
  const hub = new DocHub(db, { compactAfterUpdates: Number.POSITIVE_INFINITY });
  try {
    let tail = 0;
    for (let i = 0; i < updates.length; i += APPEND_CHUNK) {
      if (compact && tail >= COMPACT_EVERY) {
        await hub.store.compact(doc);
        tail = 0;
      }
      const chunk = updates.slice(i, i + APPEND_CHUNK);
      await hub.store.append(chunk.map((data) => ({ doc, data })));
      tail += chunk.length;
    }
  } finally {
    await hub.close();
  }
}

interface LoadFigures {
  scenario: string;
  logRows: number;
  logBytes: number;
  stateBytes: number;
  loadsMs: number[];
  medianMs: number;
  minMs: number;
}

async function measureLoads(
  db: Db,
  doc: string,
  scenario: string,
  expected: string,
  problems: string[],
): Promise<LoadFigures> {
  const loadsMs: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    // No compaction by the measuring hub: it would compact the long log right after the first load.
    const hub = new DocHub(db, { compactAfterUpdates: Number.POSITIVE_INFINITY });
    const t0 = performance.now();
    const text = await hub.withDoc(doc, (d) =>
      (d.getMap<Y.Map<Y.Text>>('pages').get('page1')?.get('body') as Y.Text | undefined)?.toString(),
    );
    loadsMs.push(performance.now() - t0);
    await hub.close();
    if (text !== expected) problems.push(`${scenario}: the loaded document differs from the written one`);
  }
  const stored = await new DocHub(db).store.load(doc);
  const sorted = [...loadsMs].sort((a, b) => a - b);
  return {
    scenario,
    logRows: stored.tail.length,
    logBytes: stored.tailBytes,
    stateBytes: stored.state?.byteLength ?? 0,
    loadsMs,
    medianMs: sorted[Math.floor(sorted.length / 2)]!,
    minMs: sorted[0]!,
  };
}

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const b = await startBenchServer();
  try {
    const db = b.server.ctx.db;
    const { updates, text } = typingHistory();
    console.log(
      `cold-load: ${b.backend}, ${UPDATES} updates (${updates.reduce((n, u) => n + u.byteLength, 0)} bytes), writing…`,
    );
    await store(db, 'bench/uncompacted', updates, false);
    await store(db, 'bench/compacted', updates, true);
    const results = [
      await measureLoads(db, 'bench/uncompacted', 'without compaction', text, problems),
      await measureLoads(db, 'bench/compacted', `compacted every ${COMPACT_EVERY}`, text, problems),
    ];
    console.log('');
    for (const r of results) {
      console.log(
        `${r.scenario.padEnd(22)} log rows ${String(r.logRows).padStart(6)}  log ${String(r.logBytes).padStart(8)} B  state ${String(r.stateBytes).padStart(7)} B  ` +
          `cold load median ${r.medianMs.toFixed(1)} ms (min ${r.minMs.toFixed(1)})`,
      );
    }
    const ratio = results[0]!.medianMs / results[1]!.medianMs;
    console.log(`compaction makes the cold load ${ratio.toFixed(1)}x faster\n`);
    const dir = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
    await mkdir(dir, { recursive: true });
    const file = `${dir}bench-cold-load.json`;
    await writeFile(
      file,
      JSON.stringify(
        {
          bench: name,
          date: new Date().toISOString(),
          backend: b.backend,
          node: process.version,
          cpus: os.cpus().length,
          updates: UPDATES,
          results,
          speedup: ratio,
          problems,
        },
        null,
        2,
      ) + '\n',
    );
    console.log(`cold-load: results written to ${file}`);
  } finally {
    await b.close();
  }
  return { ok: problems.length === 0, problems };
}
