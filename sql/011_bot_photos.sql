-- Issue 25: the owner's photo as the bot's avatar. The bytes are the re-encoded WebP (never the
-- upload); bots.photo_sha256 names it, so the config view's image URL changes with the photo.
ALTER TABLE bots ADD COLUMN photo_sha256 text;

CREATE TABLE bot_photos (
  bot_id uuid PRIMARY KEY REFERENCES bots (id) ON DELETE CASCADE,
  sha256 text NOT NULL,
  image bytea NOT NULL,
  created_at timestamptz NOT NULL
);
