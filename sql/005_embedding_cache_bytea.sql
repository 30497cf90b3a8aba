-- Embedding vectors move from real[] to bytea: little-endian float32, 4 bytes per dimension.
-- Parsing real[] text in the service took tens of milliseconds per retrieval; bytea decodes
-- in about one. Old rows are dropped rather than converted: this is a cache, and a miss
-- only re-embeds the chunk.

DELETE FROM embedding_cache;
ALTER TABLE embedding_cache DROP COLUMN embedding;
ALTER TABLE embedding_cache ADD COLUMN embedding bytea NOT NULL;
