-- The word index gets a third column, `context`: for sections of a conversation-like stream (play log,
-- journal) the text around the section: the last 400 characters of each of the two sections of the
-- same kind before it and the first 400 of each of the two after it. A line of dialogue rarely repeats
-- the words of a later question about it, but the lines around it often do (the question that
-- prompted it, the reply to it): BM25 over body + context finds it through them (docs/performance.md,
-- LoCoMo). 400 characters hold nearly every line of dialogue whole; of a long GM reply they keep the
-- part nearest the section, and bound the indexing work. Documents, notes, story entries and summaries
-- have headings for that and get no context.
--
-- The table is contentless (it stores no text; bm25 needs none) with contentless_delete, so a row can
-- be dropped by rowid and indexed again when its context changes. A new section is indexed with the
-- context it has (the sections before it) in the writer's transaction; the two before it, whose
-- context now lacks it, are queued in `context_queue` and indexed again after the commit, with the
-- embeddings (search/context-queue.ts): the turn's own commit stays as light as before. Existing
-- databases are re-indexed here, contexts included.
CREATE INDEX `sections_stream` ON `sections` (`kind`, `id`);
--> statement-breakpoint
CREATE VIEW `sections_words_source` AS SELECT x.id AS id, x.path AS path, x.body AS body, CASE WHEN x.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT substr(body, -400) AS body FROM `sections` WHERE kind = x.kind AND id < x.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT substr(body, 1, 400) AS body FROM `sections` WHERE kind = x.kind AND id > x.id ORDER BY id LIMIT 2) n), '') ELSE '' END AS context FROM `sections` x;
--> statement-breakpoint
CREATE TABLE `context_queue` (`section_id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
DROP TRIGGER `sections_ai`;
--> statement-breakpoint
DROP TRIGGER `sections_ad`;
--> statement-breakpoint
DROP TRIGGER `sections_au`;
--> statement-breakpoint
DROP TABLE `sections_words`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `sections_words` USING fts5(`path`, `body`, `context`, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT id, path, body, context FROM `sections_words_source`;
--> statement-breakpoint
CREATE TRIGGER `sections_ai` AFTER INSERT ON `sections` BEGIN
	INSERT INTO `sections_trigram`(rowid, `path`, `body`) VALUES (new.id, new.path, new.body);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT id, path, body, context FROM `sections_words_source` WHERE id = new.id;
	INSERT OR REPLACE INTO `embed_queue`(`section_id`, `enqueued_at`) VALUES (new.id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
--> statement-breakpoint
CREATE TRIGGER `sections_ai_stream` AFTER INSERT ON `sections` WHEN new.kind IN ('log', 'journal') BEGIN
	INSERT OR IGNORE INTO `context_queue`(`section_id`) SELECT id FROM (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 2);
END;
--> statement-breakpoint
CREATE TRIGGER `sections_ad` AFTER DELETE ON `sections` BEGIN
	INSERT INTO `sections_trigram`(`sections_trigram`, rowid, `path`, `body`) VALUES ('delete', old.id, old.path, old.body);
	DELETE FROM `sections_words` WHERE rowid = old.id;
	DELETE FROM `embed_queue` WHERE `section_id` = old.id;
	DELETE FROM `context_queue` WHERE `section_id` = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `sections_ad_stream` AFTER DELETE ON `sections` WHEN old.kind IN ('log', 'journal') BEGIN
	INSERT OR IGNORE INTO `context_queue`(`section_id`) SELECT id FROM (SELECT id FROM `sections` WHERE kind = old.kind AND id < old.id ORDER BY id DESC LIMIT 2) UNION ALL SELECT id FROM (SELECT id FROM `sections` WHERE kind = old.kind AND id > old.id ORDER BY id LIMIT 2);
END;
--> statement-breakpoint
CREATE TRIGGER `sections_au` AFTER UPDATE ON `sections` BEGIN
	INSERT INTO `sections_trigram`(`sections_trigram`, rowid, `path`, `body`) VALUES ('delete', old.id, old.path, old.body);
	INSERT INTO `sections_trigram`(rowid, `path`, `body`) VALUES (new.id, new.path, new.body);
	DELETE FROM `sections_words` WHERE rowid = old.id;
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT id, path, body, context FROM `sections_words_source` WHERE id = new.id;
	INSERT OR REPLACE INTO `embed_queue`(`section_id`, `enqueued_at`)
		SELECT new.id, CAST(unixepoch('subsec') * 1000 AS INTEGER) WHERE new.content_hash IS NOT old.content_hash;
END;
--> statement-breakpoint
CREATE TRIGGER `sections_au_stream` AFTER UPDATE OF `body` ON `sections` WHEN new.kind IN ('log', 'journal') AND new.body IS NOT old.body BEGIN
	INSERT OR IGNORE INTO `context_queue`(`section_id`) SELECT id FROM (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 2) UNION ALL SELECT id FROM (SELECT id FROM `sections` WHERE kind = new.kind AND id > new.id ORDER BY id LIMIT 2);
END;
