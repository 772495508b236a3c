-- Queries shorter than three characters (two-character Japanese names such as 北門, a single kanji)
-- cannot be answered by the trigram index directly. Recall answers them without a table scan:
-- 1. a 1-2 character string that is not at the very end of a column is the prefix of at least one
--    indexed trigram; this vocabulary table lists the trigrams so they can be found by a range query
--    and OR-ed into one trigram MATCH (ranked by BM25 like any other query);
-- 2. the last one or two characters of each column are covered by the expression indexes below.
CREATE VIRTUAL TABLE `sections_trigram_vocab` USING fts5vocab(`sections_trigram`, 'row');
--> statement-breakpoint
CREATE INDEX `sections_path_tail2` ON `sections`(lower(substr(`path`, -2)));
--> statement-breakpoint
CREATE INDEX `sections_path_tail1` ON `sections`(lower(substr(`path`, -1)));
--> statement-breakpoint
CREATE INDEX `sections_body_tail2` ON `sections`(lower(substr(`body`, -2)));
--> statement-breakpoint
CREATE INDEX `sections_body_tail1` ON `sections`(lower(substr(`body`, -1)));
