CREATE TABLE `alternative_rows` (
	`turn_key` text NOT NULL,
	`turn_id` text NOT NULL,
	`tbl` text NOT NULL,
	`row_id` integer NOT NULL,
	`before` text,
	`after` text,
	PRIMARY KEY(`turn_key`, `turn_id`, `tbl`, `row_id`)
);
--> statement-breakpoint
CREATE TABLE `turn_alternatives` (
	`turn_key` text PRIMARY KEY NOT NULL,
	`group_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `turn_alternatives_group` ON `turn_alternatives` (`group_id`);--> statement-breakpoint
ALTER TABLE `saves` ADD `at` text;