CREATE TABLE `session_databases` (
	`session_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`hostname` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `session_databases_name_unique` ON `session_databases` (`name`);--> statement-breakpoint
CREATE INDEX `session_databases_status` ON `session_databases` (`status`,`updated_at`);