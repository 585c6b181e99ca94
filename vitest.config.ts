import { defineConfig } from 'vitest/config';

/**
 * The API and sync suites run twice: once on the embedded PGlite and once on the
 * PostgreSQL server at 127.0.0.1:5432 (FOLIO_TEST_BACKEND selects which).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a state that arrives later (a render, a job, a revision): its default of one
    // second is shorter than a loaded 2-core CI machine sometimes takes. Passing polls return at once.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'api-pglite', include: ['test/api/**/*.test.ts'], env: { FOLIO_TEST_BACKEND: 'pglite' } },
      },
      {
        extends: true,
        test: { name: 'api-postgres', include: ['test/api/**/*.test.ts'], env: { FOLIO_TEST_BACKEND: 'postgres' } },
      },
      {
        extends: true,
        test: { name: 'sync-pglite', include: ['test/sync/**/*.test.ts'], env: { FOLIO_TEST_BACKEND: 'pglite' } },
      },
      {
        extends: true,
        test: { name: 'sync-postgres', include: ['test/sync/**/*.test.ts'], env: { FOLIO_TEST_BACKEND: 'postgres' } },
      },
      {
        // Several real server processes sharing the machine's PostgreSQL and Redis (FOLIO_REDIS_URL).
        extends: true,
        test: { name: 'cluster', include: ['test/cluster/**/*.test.ts'], env: { FOLIO_TEST_BACKEND: 'postgres' } },
      },
      {
        // Headless Debian Chromium against a real server; PGlite (the browser is the part under test).
        extends: true,
        // A test here is a whole scenario (screenshots and axe in both schemes included): its timeout
        // guards against a hang, not speed, and a loaded 2-core CI machine takes more than 30 s for some.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          env: { FOLIO_TEST_BACKEND: 'pglite' },
          testTimeout: 120_000,
        },
      },
      {
        // Generated requests to every operation of /v1/openapi.json (fixed seed, ~4,000 requests); PGlite.
        extends: true,
        test: {
          name: 'fuzz',
          include: ['test/fuzz/**/*.test.ts'],
          env: { FOLIO_TEST_BACKEND: 'pglite' },
          testTimeout: 600_000,
        },
      },
    ],
  },
});
