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
CREATE FUNCTION rate_limit_admit(
  buckets text[],
  short_starts timestamptz[],
  long_starts timestamptz[],
  per_minute integer[],
  per_day integer[]
) RETURNS boolean[]
LANGUAGE plpgsql STRICT AS $$
DECLARE
  admitted boolean[] := array_fill(false, ARRAY[cardinality(buckets)]);
  i integer;
BEGIN
  FOR i IN SELECT r.ord FROM unnest(buckets) WITH ORDINALITY AS r(bucket, ord) ORDER BY r.bucket, r.ord LOOP
    CONTINUE WHEN per_minute[i] < 1 OR per_day[i] < 1;
    INSERT INTO rate_limit_buckets AS b (bucket, short_start, short_count, long_start, long_count)
    VALUES (buckets[i], short_starts[i], 1, long_starts[i], 1)
    ON CONFLICT (bucket) DO UPDATE SET
      short_start = GREATEST(b.short_start, EXCLUDED.short_start),
      short_count = CASE WHEN EXCLUDED.short_start > b.short_start THEN 1 ELSE b.short_count + 1 END,
      long_start  = GREATEST(b.long_start, EXCLUDED.long_start),
      long_count  = CASE WHEN EXCLUDED.long_start > b.long_start THEN 1 ELSE b.long_count + 1 END
    WHERE (EXCLUDED.short_start > b.short_start OR b.short_count < per_minute[i])
      AND (EXCLUDED.long_start > b.long_start OR b.long_count < per_day[i]);
    admitted[i] := FOUND;
  END LOOP;
  RETURN admitted;
END
$$;

-- Counters are worth no disk write: a crash (or a failover) forgets them, which only
-- opens every bucket's current windows afresh. Unlogged, an admission writes no WAL and
-- its commit waits for no flush.
ALTER TABLE rate_limit_buckets SET UNLOGGED;
