import pg from 'pg';

/** Where test and bench databases are created (trust auth on this machine kind). */
export const PG_ADMIN_URL = process.env.FOLIO_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A fresh, uniquely named PostgreSQL database (named with `prefix`), and how to
 * drop it again (even with connections still open).
 */
export async function freshPostgresDatabase(prefix = 'folio_t'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
