-- The job runner's queue (jobs/runner.ts): background work that outlives a request — processing
-- an OpenAPI spec, an import, a Git sync, a translation, an integration event. A job is claimed by
-- one process at a time under a lease it renews; a process that dies (kill -9) lets its lease run
-- out, and the job is queued again (or failed once out of attempts). Jobs with the same `subject`
-- run one at a time, oldest first: an older run never overwrites a newer one.
CREATE TABLE jobs (
  id text PRIMARY KEY,
  -- The order jobs were queued in (timestamps tie within a millisecond; ids are random).
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  kind text NOT NULL,
  organization_id text,
  subject text,
  payload jsonb NOT NULL,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL CHECK (max_attempts >= 1),
  run_after timestamptz NOT NULL,
  lease_owner text,
  lease_until timestamptz,
  cancel_requested boolean NOT NULL DEFAULT false,
  progress jsonb,
  result jsonb,
  error_code text,
  error_message text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX jobs_ready ON jobs (run_after, seq) WHERE state = 'queued';
CREATE INDEX jobs_leases ON jobs (lease_until) WHERE state = 'running';
CREATE INDEX jobs_by_subject ON jobs (subject, seq);
-- At most one running job per subject, across every process: the database, not a race, decides.
CREATE UNIQUE INDEX jobs_one_running_per_subject ON jobs (subject) WHERE state = 'running' AND subject IS NOT NULL;
