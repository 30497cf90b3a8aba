-- A self-hosted runtime reports the messages its filter refused (POST /api/v1/bot/refused-messages),
-- each under an id it chose, so that a report retried after a lost answer keeps one row and counts
-- once. The platform's own chat keeps its refusals without one.
ALTER TABLE refused_messages ADD COLUMN report_id uuid;
CREATE UNIQUE INDEX refused_messages_report_idx ON refused_messages (bot_id, report_id) WHERE report_id IS NOT NULL;
