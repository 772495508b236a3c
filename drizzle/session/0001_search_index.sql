-- Full-text indexes over `sections`, kept in step by triggers so that every transaction that
-- writes a section also updates the index and queues the section for embedding.
-- trigram: substring match that needs no Japanese morphology (queries of 3+ characters).
CREATE VIRTUAL TABLE `sections_trigram` USING fts5(`path`, `body`, content='sections', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
-- words: English-style ranking with BM25 and Porter stemming.
CREATE VIRTUAL TABLE `sections_words` USING fts5(`path`, `body`, content='sections', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `sections_ai` AFTER INSERT ON `sections` BEGIN
	INSERT INTO `sections_trigram`(rowid, `path`, `body`) VALUES (new.id, new.path, new.body);
	INSERT INTO `sections_words`(rowid, `path`, `body`) VALUES (new.id, new.path, new.body);
	INSERT OR REPLACE INTO `embed_queue`(`section_id`, `enqueued_at`) VALUES (new.id, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
--> statement-breakpoint
CREATE TRIGGER `sections_ad` AFTER DELETE ON `sections` BEGIN
	INSERT INTO `sections_trigram`(`sections_trigram`, rowid, `path`, `body`) VALUES ('delete', old.id, old.path, old.body);
	INSERT INTO `sections_words`(`sections_words`, rowid, `path`, `body`) VALUES ('delete', old.id, old.path, old.body);
	DELETE FROM `embed_queue` WHERE `section_id` = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `sections_au` AFTER UPDATE ON `sections` BEGIN
	INSERT INTO `sections_trigram`(`sections_trigram`, rowid, `path`, `body`) VALUES ('delete', old.id, old.path, old.body);
	INSERT INTO `sections_words`(`sections_words`, rowid, `path`, `body`) VALUES ('delete', old.id, old.path, old.body);
	INSERT INTO `sections_trigram`(rowid, `path`, `body`) VALUES (new.id, new.path, new.body);
	INSERT INTO `sections_words`(rowid, `path`, `body`) VALUES (new.id, new.path, new.body);
	INSERT OR REPLACE INTO `embed_queue`(`section_id`, `enqueued_at`)
		SELECT new.id, CAST(unixepoch('subsec') * 1000 AS INTEGER) WHERE new.content_hash IS NOT old.content_hash;
END;
