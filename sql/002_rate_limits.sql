-- Two fixed windows per bucket in one row, so a single upsert can check both tiers
-- and count in both atomically (a rejected request consumes nothing).
CREATE TABLE rate_limit_buckets (
  bucket      text PRIMARY KEY,
  short_start timestamptz NOT NULL,
  short_count integer NOT NULL,
  long_start  timestamptz NOT NULL,
  long_count  integer NOT NULL
);
