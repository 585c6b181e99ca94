-- Change requests: a fork of a space's content document (cr/<id>/content)
-- edited over the same sync protocol, merged back as a CRDT merge.
-- number: per-space sequence shown to users (#1, #2, ...); the API accepts it
-- wherever it accepts the id.
CREATE TABLE change_requests (
  id text PRIMARY KEY,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  number integer NOT NULL,
  subject text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'open', 'merged', 'archived')),
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Current revision of the fork, the space revision it was forked from, the
  -- space revision of the last update-from-main, and the merge's revision.
  revision text NOT NULL,
  revision_initial text NOT NULL,
  revision_merged_ancestor text,
  revision_merged text,
  agent_task_id text,
  merged_at timestamptz,
  merged_by text REFERENCES users(id) ON DELETE SET NULL,
  UNIQUE (space_id, number)
);
CREATE INDEX change_requests_space_status ON change_requests(space_id, status, updated_at);

CREATE TABLE change_request_reviews (
  id text PRIMARY KEY,
  change_request_id text NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  reviewer text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- The revision of the change request the review was made against.
  revision text NOT NULL,
  status text NOT NULL CHECK (status IN ('approved', 'changes-requested')),
  body jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_request_reviews_cr ON change_request_reviews(change_request_id, created_at);

CREATE TABLE change_request_reviewers (
  change_request_id text NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  requested_by text REFERENCES users(id) ON DELETE SET NULL,
  revision text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (change_request_id, user_id)
);
