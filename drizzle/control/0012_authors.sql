CREATE TABLE `preset_tags` (
	`preset_id` text NOT NULL,
	`tag` text NOT NULL,
	PRIMARY KEY(`preset_id`, `tag`),
	FOREIGN KEY (`preset_id`) REFERENCES `presets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `preset_tags_tag` ON `preset_tags` (`tag`,`preset_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `show_mature` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `preset_versions` ADD `note` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `preset_versions` ADD `saved_by` text REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `presets` ADD `rating` text DEFAULT 'general' NOT NULL;--> statement-breakpoint
-- Hand-written: the current versions' tags and authors, so the gallery's tag filter and the history know the presets saved before this migration.
INSERT OR IGNORE INTO `preset_tags` (`preset_id`, `tag`)
	SELECT p.`id`, lower(trim(t.`value`)) FROM `presets` p
	JOIN `preset_versions` v ON v.`preset_id` = p.`id` AND v.`version` = p.`current_version`,
	json_each(v.`content`, '$.tags') t
	WHERE json_valid(v.`content`) AND json_type(v.`content`, '$.tags') = 'array' AND t.`type` = 'text' AND trim(t.`value`) <> '';--> statement-breakpoint
UPDATE `presets` SET `search_text` = `search_text` || (
	SELECT group_concat(char(10) || `tag`, '') FROM `preset_tags` WHERE `preset_tags`.`preset_id` = `presets`.`id`
) WHERE EXISTS (SELECT 1 FROM `preset_tags` WHERE `preset_tags`.`preset_id` = `presets`.`id`);--> statement-breakpoint
UPDATE `preset_versions` SET `saved_by` = (SELECT `author_id` FROM `presets` WHERE `presets`.`id` = `preset_versions`.`preset_id`);
