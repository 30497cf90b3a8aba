-- Issue 22, item 6: the managed widget's chat runs in a frame the platform serves (/embed/{botId}),
-- and the owner may list the sites allowed to embed it. The embed page's CSP frame-ancestors
-- follows this list; an empty list allows any site. Each entry is an origin the API validated
-- (https://host[:port], or http://localhost[:port]); the API bounds the count, the CHECK backs it.
ALTER TABLE bots
  ADD COLUMN embed_origins text[] NOT NULL DEFAULT '{}',
  ADD CONSTRAINT bots_embed_origins_count CHECK (cardinality(embed_origins) <= 20);
