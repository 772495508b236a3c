CREATE TABLE `llm_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`day` text NOT NULL,
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer NOT NULL,
	`cached_input_tokens` integer NOT NULL,
	`cache_write_tokens` integer NOT NULL,
	`output_tokens` integer NOT NULL,
	`cost_micros` integer NOT NULL,
	`latency_ms` integer NOT NULL,
	`retries` integer NOT NULL,
	`failure` text
);
--> statement-breakpoint
CREATE INDEX `llm_calls_day` ON `llm_calls` (`day`);--> statement-breakpoint
CREATE INDEX `llm_calls_user_day` ON `llm_calls` (`user_id`,`day`);--> statement-breakpoint
CREATE TABLE `user_identities` (
	`provider` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` text NOT NULL,
	`label` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	PRIMARY KEY(`provider`, `subject`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_identities_user` ON `user_identities` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `tier` text DEFAULT 'free' NOT NULL;