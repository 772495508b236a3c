CREATE TABLE `saves` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`quick` integer DEFAULT false NOT NULL,
	`database` text NOT NULL,
	`turn_seq` integer NOT NULL,
	`turn_number` integer NOT NULL,
	`last_line` text NOT NULL,
	`thumbnail` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `saves_created` ON `saves` (`created_at`);--> statement-breakpoint
CREATE TABLE `time_travel_requests` (
	`key` text PRIMARY KEY NOT NULL,
	`action` text NOT NULL,
	`turn_id` text NOT NULL,
	`undone` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `undo_capture` (
	`turn_id` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `undo_log` (
	`turn_id` text NOT NULL,
	`tbl` text NOT NULL,
	`row_id` integer NOT NULL,
	`before` text,
	PRIMARY KEY(`turn_id`, `tbl`, `row_id`)
);
--> statement-breakpoint
CREATE TABLE `undone_turns` (
	`id` text PRIMARY KEY NOT NULL,
	`idempotency_key` text NOT NULL,
	`kind` text NOT NULL,
	`input` text NOT NULL,
	`undo_key` text NOT NULL,
	`undone_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `undone_turns_idempotency_key_unique` ON `undone_turns` (`idempotency_key`);