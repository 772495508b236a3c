CREATE TABLE `budget_reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`day` text NOT NULL,
	`micros` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `budget_reservations_user_day` ON `budget_reservations` (`user_id`,`day`);--> statement-breakpoint
CREATE INDEX `budget_reservations_day` ON `budget_reservations` (`day`);--> statement-breakpoint
CREATE INDEX `budget_reservations_session` ON `budget_reservations` (`session_id`);--> statement-breakpoint
CREATE TABLE `session_work` (
	`session_id` text PRIMARY KEY NOT NULL,
	`since` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `usage_daily` ADD `regenerations` integer DEFAULT 0 NOT NULL;