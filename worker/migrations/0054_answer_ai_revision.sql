-- The AI correction assistant (issue 17): an answer's AI revision keeps its result (proposed scores per assessed
-- skill, errors marked by category with explanations, the comment) and the paid operation that made it.
-- Existing answers have had no revision: their result is empty and their state (ai_revision) stays NULL.
ALTER TABLE tms_answer ADD COLUMN ai_result TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tms_answer ADD COLUMN ai_operation TEXT;

-- Its price in the price lists that already carry the product's system prices (a realm set up with them before this
-- migration), at the demo price the seed gives new states; a realm may change it like any price.
INSERT INTO ledger_content (realm, key, name, description, points, is_system, updated_at, updated_by)
SELECT DISTINCT realm, 'tms.answer_revision', 'Revisão de resposta por IA', '', 10, 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'migration'
FROM ledger_content WHERE is_system = 1
ON CONFLICT (realm, key) DO NOTHING;
