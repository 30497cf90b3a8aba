-- Rate-limit admissions in batches: one statement admits many requests, in one round trip.
--
-- rate_limit_admit applies, to each request in turn, the rule every admission follows: both
-- tiers must have room, and then both count; a refusal changes nothing. The row lock taken
-- by ON CONFLICT serialises concurrent callers, each seeing the count the previous one left,
-- so N requests against a remaining budget L admit exactly min(N, L) however they are
-- batched. Only a later window start renews a window, so an instance whose clock lags
-- counts in the current window instead of resetting it. A limit below 1 admits nothing.
--
-- Requests are taken in bucket order (and in arrival order within a bucket): two batches
-- that share buckets lock them in the same order, so they cannot deadlock each other.
--
-- One row per request, in the order given: whether it was admitted and, when it was not, the
-- bucket as the refusal found it (read under the row's lock), so the caller can tell which
-- tier refused and until when without another statement.
CREATE FUNCTION rate_limit_admit(
  buckets text[],
  short_starts timestamptz[],
  long_starts timestamptz[],
  per_minute integer[],
  per_day integer[]
) RETURNS TABLE (
  admitted boolean,
  state_short_start timestamptz,
  state_short_count integer,
  state_long_start timestamptz,
  state_long_count integer
)
LANGUAGE plpgsql STRICT AS $$
DECLARE
  n integer := cardinality(buckets);
  granted boolean[] := array_fill(false, ARRAY[n]);
  short_start_seen timestamptz[] := array_fill(NULL::timestamptz, ARRAY[n]);
  short_count_seen integer[] := array_fill(NULL::integer, ARRAY[n]);
  long_start_seen timestamptz[] := array_fill(NULL::timestamptz, ARRAY[n]);
  long_count_seen integer[] := array_fill(NULL::integer, ARRAY[n]);
  stored rate_limit_buckets%ROWTYPE;
  k integer;
BEGIN
  FOR k IN SELECT r.ord FROM unnest(buckets) WITH ORDINALITY AS r(bucket, ord) ORDER BY r.bucket, r.ord LOOP
    IF per_minute[k] >= 1 AND per_day[k] >= 1 THEN
      INSERT INTO rate_limit_buckets AS b (bucket, short_start, short_count, long_start, long_count)
      VALUES (buckets[k], short_starts[k], 1, long_starts[k], 1)
      ON CONFLICT (bucket) DO UPDATE SET
        short_start = GREATEST(b.short_start, EXCLUDED.short_start),
        short_count = CASE WHEN EXCLUDED.short_start > b.short_start THEN 1 ELSE b.short_count + 1 END,
        long_start  = GREATEST(b.long_start, EXCLUDED.long_start),
        long_count  = CASE WHEN EXCLUDED.long_start > b.long_start THEN 1 ELSE b.long_count + 1 END
      WHERE (EXCLUDED.short_start > b.short_start OR b.short_count < per_minute[k])
        AND (EXCLUDED.long_start > b.long_start OR b.long_count < per_day[k]);
      granted[k] := FOUND;
    END IF;
    IF NOT granted[k] THEN
      SELECT * INTO stored FROM rate_limit_buckets AS b WHERE b.bucket = buckets[k];
      short_start_seen[k] := stored.short_start;
      short_count_seen[k] := stored.short_count;
      long_start_seen[k] := stored.long_start;
      long_count_seen[k] := stored.long_count;
    END IF;
  END LOOP;
  RETURN QUERY SELECT * FROM unnest(granted, short_start_seen, short_count_seen, long_start_seen, long_count_seen);
END
$$;

-- Counters are worth no disk write: a crash (or a failover) forgets them, which only
-- opens every bucket's current windows afresh. Unlogged, an admission writes no WAL and
-- its commit waits for no flush.
ALTER TABLE rate_limit_buckets SET UNLOGGED;
