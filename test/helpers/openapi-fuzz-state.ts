import type { Db } from '../../sync-server/store/db';
import type { DocHub } from '../../sync-server/docs/hub';

/**
 * "No state change from a rejected request", made cheap enough to check
 * around every rejected write: a digest per table of the database's resource
 * tables, plus the Yjs documents' committed updates (comments, reviews'
 * discussions and page content live there, not in SQL).
 *
 * Left out, because the server changes them by itself, on a timer or on
 * every request, whatever the request's outcome:
 * - tables of derived or background data: document storage (doc_updates,
 *   doc_states: compaction), revisions and their pages (cut when a document
 *   has been quiet), the search index (follows revisions), server secrets,
 *   migrations, and any rate-limit bookkeeping;
 * - columns stamped by reads or by the revision timer: `last_used_at`
 *   (tokens), `last_seen_at` (members), `revision` and `updated_at` (a space
 *   or change request gets its new revision some seconds after an edit);
 * - what background jobs write while the suite runs (a spec created by an
 *   earlier request is processed meanwhile): the job queue, OpenAPI spec
 *   versions, and a spec's processing report (its state, last version and
 *   errors).
 */
const IGNORED_TABLES = new Set([
  'doc_updates',
  'doc_states',
  'revisions',
  'revision_pages',
  'search_sections',
  'server_secrets',
  'schema_migrations',
  'jobs',
  'openapi_spec_versions',
]);
const IGNORED_TABLE_PATTERN = /rate|limit|lock/i;
const IGNORED_COLUMNS = [
  'last_used_at',
  'last_seen_at',
  'revision',
  'updated_at',
  'processing_state',
  'last_version_id',
  'last_processed_at',
  'last_error_code',
  'last_errors',
  'last_error_count',
];

/** Digests of the tracked tables and the count of document updates so far. */
export interface StateSnapshot {
  tables: Map<string, string>;
  docUpdates: number;
}

export class StateProbe {
  private readonly updates: string[] = [];
  private readonly unsubscribe: () => void;

  private constructor(
    private readonly db: Db,
    private readonly sql: string,
    hub: DocHub,
  ) {
    // Updates from other processes ("remote") are not this request's doing.
    this.unsubscribe = hub.onUpdate((name, _update, origin) => {
      if (origin.kind !== 'remote') this.updates.push(name);
    });
  }

  /** Lists the database's tables once; the digest query covers those not ignored. */
  static async create(db: Db, hub: DocHub): Promise<StateProbe> {
    const rows = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const tables = rows
      .map((r) => r.table_name)
      .filter((name) => !IGNORED_TABLES.has(name) && !IGNORED_TABLE_PATTERN.test(name));
    const columns = `ARRAY[${IGNORED_COLUMNS.map((c) => `'${c}'`).join(', ')}]`;
    const sql = tables
      .map(
        (name) =>
          `SELECT '${name}' AS name, md5(coalesce(string_agg(x, '|' ORDER BY x), '')) AS digest
           FROM (SELECT (to_jsonb(t) - ${columns})::text AS x FROM "${name}" t) s`,
      )
      .join(' UNION ALL ');
    return new StateProbe(db, sql, hub);
  }

  async snapshot(): Promise<StateSnapshot> {
    const rows = await this.db.query<{ name: string; digest: string }>(this.sql);
    return { tables: new Map(rows.map((r) => [r.name, r.digest])), docUpdates: this.updates.length };
  }

  /** What changed from `before` to `after`: table names and names of updated documents. */
  changes(before: StateSnapshot, after: StateSnapshot): string[] {
    const out: string[] = [];
    for (const [name, digest] of after.tables) if (before.tables.get(name) !== digest) out.push(`table ${name}`);
    const docs = new Set(this.updates.slice(before.docUpdates, after.docUpdates));
    for (const name of docs) out.push(`document ${name}`);
    return out;
  }

  close(): void {
    this.unsubscribe();
  }
}
