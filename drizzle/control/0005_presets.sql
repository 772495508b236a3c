CREATE TABLE `gallery_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `preset_covers` (
	`preset_id` text PRIMARY KEY NOT NULL,
	`slot` text NOT NULL,
	`prompt` text NOT NULL,
	`subject` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`image` text,
	`error` text,
	`lease_expires_at` integer,
	`next_attempt_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`preset_id`) REFERENCES `presets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `preset_covers_slot_unique` ON `preset_covers` (`slot`);--> statement-breakpoint
CREATE INDEX `preset_covers_status` ON `preset_covers` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `preset_favorites` (
	`user_id` text NOT NULL,
	`preset_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `preset_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`preset_id`) REFERENCES `presets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `preset_favorites_shelf` ON `preset_favorites` (`user_id`,`created_at`,`preset_id`);--> statement-breakpoint
CREATE INDEX `preset_favorites_preset` ON `preset_favorites` (`preset_id`);--> statement-breakpoint
CREATE TABLE `preset_players` (
	`preset_id` text NOT NULL,
	`user_id` text NOT NULL,
	`first_played_at` integer NOT NULL,
	`last_played_at` integer NOT NULL,
	PRIMARY KEY(`preset_id`, `user_id`),
	FOREIGN KEY (`preset_id`) REFERENCES `presets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `preset_players_recent` ON `preset_players` (`preset_id`,`last_played_at`);--> statement-breakpoint
CREATE INDEX `preset_players_user` ON `preset_players` (`user_id`);--> statement-breakpoint
CREATE TABLE `preset_publications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`preset_id` text NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `preset_publications_user` ON `preset_publications` (`user_id`,`at`);--> statement-breakpoint
CREATE TABLE `preset_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`preset_id` text NOT NULL,
	`reporter_id` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	`resolution` text,
	FOREIGN KEY (`preset_id`) REFERENCES `presets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `preset_reports_once` ON `preset_reports` (`preset_id`,`reporter_id`);--> statement-breakpoint
CREATE INDEX `preset_reports_open` ON `preset_reports` (`resolved_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `preset_versions` (
	`preset_id` text NOT NULL,
	`version` integer NOT NULL,
	`content` text NOT NULL,
	`content_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`preset_id`, `version`),
	FOREIGN KEY (`preset_id`) REFERENCES `presets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `presets` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`author_id` text,
	`official` integer DEFAULT false NOT NULL,
	`language` text,
	`visibility` text DEFAULT 'private' NOT NULL,
	`title` text NOT NULL,
	`tagline` text NOT NULL,
	`search_text` text NOT NULL,
	`current_version` integer,
	`draft` text,
	`draft_updated_at` integer,
	`moderated_at` integer,
	`published_at` integer,
	`players_total` integer DEFAULT 0 NOT NULL,
	`players_30d` integer DEFAULT 0 NOT NULL,
	`favorites` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`listed` integer GENERATED ALWAYS AS (visibility = 'public' AND moderated_at IS NULL AND current_version IS NOT NULL AND official = 0) VIRTUAL NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `presets_id_unique` ON `presets` (`id`);--> statement-breakpoint
CREATE INDEX `presets_author` ON `presets` (`author_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `presets_new` ON `presets` (`listed`,`published_at`,`seq`);--> statement-breakpoint
CREATE INDEX `presets_new_language` ON `presets` (`listed`,`language`,`published_at`,`seq`);--> statement-breakpoint
CREATE INDEX `presets_popular` ON `presets` (`listed`,`players_30d`,`favorites`,`published_at`,`seq`);--> statement-breakpoint
CREATE INDEX `presets_popular_language` ON `presets` (`listed`,`language`,`players_30d`,`favorites`,`published_at`,`seq`);--> statement-breakpoint
-- Gallery search: title + tagline as trigram FTS (substrings in any script, Japanese included, for
-- queries of 3+ characters; shorter ones are matched with instr() over `search_text`). External
-- content on `presets`, keyed by its integer `seq`, kept in step by the triggers below.
CREATE VIRTUAL TABLE `preset_search` USING fts5(`search_text`, content='presets', content_rowid='seq', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `presets_search_ai` AFTER INSERT ON `presets` BEGIN
	INSERT INTO `preset_search`(rowid, `search_text`) VALUES (new.seq, new.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `presets_search_ad` AFTER DELETE ON `presets` BEGIN
	INSERT INTO `preset_search`(`preset_search`, rowid, `search_text`) VALUES ('delete', old.seq, old.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `presets_search_au` AFTER UPDATE OF `search_text` ON `presets` BEGIN
	INSERT INTO `preset_search`(`preset_search`, rowid, `search_text`) VALUES ('delete', old.seq, old.search_text);
	INSERT INTO `preset_search`(rowid, `search_text`) VALUES (new.seq, new.search_text);
END;
--> statement-breakpoint
-- Counters on the preset follow their rows, including rows removed by a cascade (a deleted user).
-- players_30d is recomputed by the gallery (it decays with time, which no trigger sees).
CREATE TRIGGER `preset_favorites_ai` AFTER INSERT ON `preset_favorites` BEGIN
	UPDATE `presets` SET `favorites` = `favorites` + 1 WHERE `id` = new.preset_id;
END;
--> statement-breakpoint
CREATE TRIGGER `preset_favorites_ad` AFTER DELETE ON `preset_favorites` BEGIN
	UPDATE `presets` SET `favorites` = `favorites` - 1 WHERE `id` = old.preset_id;
END;
--> statement-breakpoint
CREATE TRIGGER `preset_players_ai` AFTER INSERT ON `preset_players` BEGIN
	UPDATE `presets` SET `players_total` = `players_total` + 1 WHERE `id` = new.preset_id;
END;
--> statement-breakpoint
CREATE TRIGGER `preset_players_ad` AFTER DELETE ON `preset_players` BEGIN
	UPDATE `presets` SET `players_total` = `players_total` - 1 WHERE `id` = old.preset_id;
END;
