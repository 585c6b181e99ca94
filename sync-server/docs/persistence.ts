import * as Y from 'yjs';
import type { Db, Queryable } from '../store/db';

/**
 * Storage of Yjs documents: an append-only update log per document plus a
 * compacted state (tables in 0002-documents.sql). Loading reads both in ONE
 * statement, so it sees a single snapshot: two separate reads could straddle a
 * compaction and miss the rows it moved from the log into the state.
 *
 * Everything here is engine-neutral SQL that runs on PGlite and PostgreSQL.
 */

/** What is stored for one document: the compacted state (if any) and the remaining log. */
export interface StoredDoc {
  /** Y.encodeStateAsUpdate of everything compacted so far, or undefined. */
  state: Uint8Array | undefined;
  /** generation of the state row (0 = no row yet); compaction's optimistic guard. */
  generation: number;
  /** Log rows not compacted yet, in seq order. */
  tail: { seq: number; data: Uint8Array }[];
  /** Sum of the tail's byte lengths. */
  tailBytes: number;
}

/** What one compaction did. */
export interface CompactionResult {
  /** Log rows merged into the state and deleted. */
  merged: number;
  mergedBytes: number;
  /** Size of the new state. */
  stateBytes: number;
  /** Log rows that could not be applied (corrupt) and were dropped. */
  dropped: number;
}

/** Rows per INSERT statement: 2 parameters each, far below PostgreSQL's 65,535-parameter limit. */
const INSERT_CHUNK = 2000;

/** bytea parameter as a Buffer view (no copy): the one binary type both pg and PGlite serialize as bytea. */
function asBytea(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** A bytea column value as a plain Uint8Array (pg returns Buffers, PGlite Uint8Arrays). */
function bytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new Error('Unexpected bytea value');
}

/**
 * Applies stored updates to `doc` in one Yjs transaction, one by one, so a
 * single corrupt row (written by an older bug, or a malformed update that
 * decoded but cannot integrate) costs that row instead of the whole document.
 * Returns how many rows failed.
 */
export function applyStored(doc: Y.Doc, updates: Iterable<Uint8Array>, origin: unknown): number {
  let failed = 0;
  doc.transact(() => {
    for (const update of updates) {
      try {
        Y.applyUpdate(doc, update, origin);
      } catch {
        failed++;
      }
    }
  }, origin);
  return failed;
}

/** The update log and compacted states of every document. */
export class DocStore {
  constructor(private readonly db: Db) {}

  /** Reads a document's state and log tail (one statement, one snapshot). */
  async load(name: string, q: Queryable = this.db): Promise<StoredDoc> {
    const rows = await q.query<{ kind: number; seq: number | string; generation: number | null; data: unknown }>(
      `SELECT 0 AS kind, seq, generation, state AS data FROM doc_states WHERE doc = $1
       UNION ALL
       SELECT 1 AS kind, seq, NULL AS generation, data FROM doc_updates WHERE doc = $1
       ORDER BY kind, seq`,
      [name],
    );
    const stored: StoredDoc = { state: undefined, generation: 0, tail: [], tailBytes: 0 };
    for (const row of rows) {
      const data = bytes(row.data);
      if (Number(row.kind) === 0) {
        stored.state = data;
        stored.generation = Number(row.generation);
      } else {
        stored.tail.push({ seq: Number(row.seq), data });
        stored.tailBytes += data.byteLength;
      }
    }
    return stored;
  }

  /**
   * Appends updates (possibly of several documents) in ONE transaction: the
   * group commit of one event-loop turn. Resolves once committed.
   */
  async append(entries: readonly { doc: string; data: Uint8Array }[]): Promise<void> {
    if (entries.length === 0) return;
    const statements: [string, unknown[]][] = [];
    for (let start = 0; start < entries.length; start += INSERT_CHUNK) {
      const params: unknown[] = [];
      const values = entries.slice(start, start + INSERT_CHUNK).map((e) => {
        params.push(e.doc, asBytea(e.data));
        return `($${params.length - 1}, $${params.length})`;
      });
      statements.push([`INSERT INTO doc_updates (doc, data) VALUES ${values.join(', ')}`, params]);
    }
    // One statement is atomic on its own: skipping BEGIN/COMMIT saves two round trips on the hot path.
    if (statements.length === 1) {
      await this.db.query(statements[0]![0], statements[0]![1]);
      return;
    }
    await this.db.transaction(async (tx) => {
      for (const [sql, params] of statements) await tx.query(sql, params);
    });
  }

  /**
   * Merges the log into the state: reads state + log (one snapshot), merges
   * them outside any transaction (CPU work must not hold PGlite's single
   * connection), then in one short transaction writes the new state only if
   * no other compactor wrote one meanwhile (generation check) and deletes
   * exactly the rows it merged. Rows appended concurrently — even ones with a
   * lower seq that committed late — are not touched, so nothing is lost.
   * Returns undefined when there was nothing to do or another compactor won.
   */
  async compact(name: string): Promise<CompactionResult | undefined> {
    const stored = await this.load(name);
    if (stored.tail.length === 0) return undefined;
    const doc = new Y.Doc();
    let state: Uint8Array;
    let dropped: number;
    try {
      dropped = applyStored(
        doc,
        stored.state ? [stored.state, ...stored.tail.map((r) => r.data)] : stored.tail.map((r) => r.data),
        null,
      );
      state = Y.encodeStateAsUpdate(doc);
    } finally {
      doc.destroy();
    }
    const seqs = stored.tail.map((r) => r.seq);
    const won = await this.db.transaction(async (tx) => {
      const written = await tx.query(
        `INSERT INTO doc_states (doc, state, seq, generation, updated_at) VALUES ($1, $2, $3, 1, now())
         ON CONFLICT (doc) DO UPDATE SET state = EXCLUDED.state, seq = GREATEST(doc_states.seq, EXCLUDED.seq),
           generation = doc_states.generation + 1, updated_at = now()
         WHERE doc_states.generation = $4
         RETURNING generation`,
        [name, asBytea(state), seqs.reduce((a, b) => Math.max(a, b), 0), stored.generation],
      );
      if (written.length === 0) return false;
      await tx.query('DELETE FROM doc_updates WHERE doc = $1 AND seq = ANY($2::bigint[])', [name, seqs]);
      return true;
    });
    if (!won) return undefined;
    return { merged: seqs.length, mergedBytes: stored.tailBytes, stateBytes: state.byteLength, dropped };
  }

  /** Size of a document's log tail (for tests, benchmarks and diagnostics). */
  async tailStats(name: string): Promise<{ count: number; bytes: number }> {
    const rows = await this.db.query<{ count: number | string; bytes: number | string }>(
      'SELECT count(*) AS count, coalesce(sum(length(data)), 0) AS bytes FROM doc_updates WHERE doc = $1',
      [name],
    );
    return { count: Number(rows[0]?.count ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
  }

  /** Deletes every stored trace of a document (purge of a space or change request). */
  async remove(name: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM doc_updates WHERE doc = $1', [name]);
      await tx.query('DELETE FROM doc_states WHERE doc = $1', [name]);
    });
  }
}
