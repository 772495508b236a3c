CREATE TABLE `documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`gm_only` integer DEFAULT false NOT NULL,
	`ref` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `embed_queue` (
	`section_id` integer PRIMARY KEY NOT NULL,
	`enqueued_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `journal` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`body` text NOT NULL,
	`ref` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `log_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`role` text NOT NULL,
	`speaker` text,
	`body` text NOT NULL,
	`turn_id` text,
	`ref` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `memory_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`body` text NOT NULL,
	`ref` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memory_notes_name_unique` ON `memory_notes` (`name`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`record_id` integer NOT NULL,
	`ord` integer NOT NULL,
	`path` text NOT NULL,
	`body` text NOT NULL,
	`gm_only` integer NOT NULL,
	`ref` text,
	`content_hash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sections_record` ON `sections` (`kind`,`record_id`,`ord`);--> statement-breakpoint
CREATE TABLE `state` (
	`id` integer PRIMARY KEY NOT NULL,
	`doc` text NOT NULL,
	`version` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `story_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`key` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`status` text,
	`result` text,
	`next_plan` text,
	`revealed` integer,
	`ref` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `story_entries_type_key` ON `story_entries` (`type`,`key`);--> statement-breakpoint
CREATE TABLE `summaries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`body` text NOT NULL,
	`ref` text,
	`created_at` integer NOT NULL
);
