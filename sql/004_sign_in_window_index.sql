-- Sign-in attempts drop past windows of every key as they go (see PgSignInThrottle).
CREATE INDEX sign_in_failures_window_idx ON sign_in_failures (window_start);
