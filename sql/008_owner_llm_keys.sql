-- The owner's provider key (issue 26), envelope-encrypted: the key is sealed with AES-256-GCM
-- under a data key of the account's own, and that data key is stored only wrapped (AES-256-GCM)
-- by the master key from KEY_ENCRYPTION_KEY. A dump alone holds no key and no data key.

CREATE TABLE owner_llm_keys (
  user_id            uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  provider           text NOT NULL,
  azure_endpoint     text,
  last_four          text NOT NULL,
  -- AES-256-GCM under the account's data key; the additional data binds it to the account.
  ciphertext         bytea NOT NULL,
  iv                 bytea NOT NULL,
  auth_tag           bytea NOT NULL,
  -- The data key, wrapped by the master key: iv (12) || tag (16) || ciphertext (32).
  wrapped_data_key   bytea NOT NULL,
  -- Which master key wrapped it (a fingerprint, never the key) and how many times it was re-wrapped.
  master_key_id      text NOT NULL,
  master_key_version integer NOT NULL DEFAULT 1,
  -- Whether the provider accepted the key when it was saved (false: it could not be reached).
  checked            boolean NOT NULL,
  enabled            boolean NOT NULL DEFAULT true,
  -- Set when the provider refused the key while answering; cleared by saving a key.
  paused_at          timestamptz,
  daily_cap          integer NOT NULL DEFAULT 100 CHECK (daily_cap BETWEEN 1 AND 100000),
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);
CREATE INDEX owner_llm_keys_master_key_idx ON owner_llm_keys (master_key_id);

-- Messages answered with the owner's key, per UTC day: the daily cap and the dashboard's counts.
CREATE TABLE owner_key_usage (
  user_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  day      date NOT NULL,
  answered integer NOT NULL,
  PRIMARY KEY (user_id, day)
);
