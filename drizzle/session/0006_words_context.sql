-- The word index gets a third column, `context`: for sections of a conversation-like stream (play log,
-- journal) the bodies of the two sections of the same kind before and the two after. A line of dialogue
-- rarely repeats the words of a later question about it, but the lines around it often do (the
-- question that prompted it, the reply to it); BM25 over body + context finds it through them
-- (docs/performance.md, LoCoMo). Documents, notes, story entries and summaries have headings for that
-- and get no context.
--
-- The table is contentless (it stores no text; bm25 needs none) with contentless_delete, so a row is
-- dropped by rowid and re-inserted when its context changes: inserting a log section re-indexes the two
-- before it. Triggers keep it in step in the writer's transaction, as before. Existing databases are
-- re-indexed here, contexts included.
CREATE INDEX `sections_stream` ON `sections` (`kind`, `id`);
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
INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT x.id, x.path, x.body, CASE WHEN x.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = x.kind AND id < x.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = x.kind AND id > x.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` x;
--> statement-breakpoint
CREATE TRIGGER `sections_ai` AFTER INSERT ON `sections` BEGIN
	INSERT INTO `sections_trigram`(rowid, `path`, `body`) VALUES (new.id, new.path, new.body);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) VALUES (new.id, new.path, new.body, CASE WHEN new.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = new.kind AND id > new.id ORDER BY id LIMIT 2) n), '') ELSE '' END);
	INSERT OR REPLACE INTO `embed_queue`(`section_id`, `enqueued_at`) VALUES (new.id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
--> statement-breakpoint
CREATE TRIGGER `sections_ai_stream` AFTER INSERT ON `sections` WHEN new.kind IN ('log', 'journal') BEGIN
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 1 OFFSET 0);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 1 OFFSET 0);
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 1 OFFSET 1);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 1 OFFSET 1);
END;
--> statement-breakpoint
CREATE TRIGGER `sections_ad` AFTER DELETE ON `sections` BEGIN
	INSERT INTO `sections_trigram`(`sections_trigram`, rowid, `path`, `body`) VALUES ('delete', old.id, old.path, old.body);
	DELETE FROM `sections_words` WHERE rowid = old.id;
	DELETE FROM `embed_queue` WHERE `section_id` = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `sections_ad_stream` AFTER DELETE ON `sections` WHEN old.kind IN ('log', 'journal') BEGIN
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = old.kind AND id < old.id ORDER BY id DESC LIMIT 1 OFFSET 0);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = old.kind AND id < old.id ORDER BY id DESC LIMIT 1 OFFSET 0);
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = old.kind AND id < old.id ORDER BY id DESC LIMIT 1 OFFSET 1);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = old.kind AND id < old.id ORDER BY id DESC LIMIT 1 OFFSET 1);
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = old.kind AND id > old.id ORDER BY id ASC LIMIT 1 OFFSET 0);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = old.kind AND id > old.id ORDER BY id ASC LIMIT 1 OFFSET 0);
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = old.kind AND id > old.id ORDER BY id ASC LIMIT 1 OFFSET 1);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = old.kind AND id > old.id ORDER BY id ASC LIMIT 1 OFFSET 1);
END;
--> statement-breakpoint
CREATE TRIGGER `sections_au` AFTER UPDATE ON `sections` BEGIN
	INSERT INTO `sections_trigram`(`sections_trigram`, rowid, `path`, `body`) VALUES ('delete', old.id, old.path, old.body);
	INSERT INTO `sections_trigram`(rowid, `path`, `body`) VALUES (new.id, new.path, new.body);
	DELETE FROM `sections_words` WHERE rowid = old.id;
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) VALUES (new.id, new.path, new.body, CASE WHEN new.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = new.kind AND id > new.id ORDER BY id LIMIT 2) n), '') ELSE '' END);
	INSERT OR REPLACE INTO `embed_queue`(`section_id`, `enqueued_at`)
		SELECT new.id, CAST(unixepoch('subsec') * 1000 AS INTEGER) WHERE new.content_hash IS NOT old.content_hash;
END;
--> statement-breakpoint
CREATE TRIGGER `sections_au_stream` AFTER UPDATE OF `body` ON `sections` WHEN new.kind IN ('log', 'journal') AND new.body IS NOT old.body BEGIN
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 1 OFFSET 0);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 1 OFFSET 0);
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 1 OFFSET 1);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = new.kind AND id < new.id ORDER BY id DESC LIMIT 1 OFFSET 1);
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = new.kind AND id > new.id ORDER BY id ASC LIMIT 1 OFFSET 0);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = new.kind AND id > new.id ORDER BY id ASC LIMIT 1 OFFSET 0);
	DELETE FROM `sections_words` WHERE rowid = (SELECT id FROM `sections` WHERE kind = new.kind AND id > new.id ORDER BY id ASC LIMIT 1 OFFSET 1);
	INSERT INTO `sections_words`(rowid, `path`, `body`, `context`) SELECT s.id, s.path, s.body, CASE WHEN s.kind IN ('log', 'journal') THEN coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id < s.id ORDER BY id DESC LIMIT 2) n), '') || ' ' || coalesce((SELECT group_concat(n.body, ' ') FROM (SELECT body FROM `sections` WHERE kind = s.kind AND id > s.id ORDER BY id LIMIT 2) n), '') ELSE '' END FROM `sections` s WHERE s.id = (SELECT id FROM `sections` WHERE kind = new.kind AND id > new.id ORDER BY id ASC LIMIT 1 OFFSET 1);
END;
