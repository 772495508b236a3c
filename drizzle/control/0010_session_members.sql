CREATE TABLE `session_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`max_uses` integer NOT NULL,
	`uses` integer DEFAULT 0 NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`session_id`) REFERENCES `play_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `session_invitations_token_hash_unique` ON `session_invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `session_invitations_session` ON `session_invitations` (`session_id`);--> statement-breakpoint
CREATE TABLE `session_members` (
	`session_id` text NOT NULL,
	`user_id` text NOT NULL,
	`seat` integer,
	`character_name` text NOT NULL,
	`character_look` text,
	`character_sheet` text,
	`joined_at` integer NOT NULL,
	`removed_at` integer,
	PRIMARY KEY(`session_id`, `user_id`),
	FOREIGN KEY (`session_id`) REFERENCES `play_sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `session_members_seat` ON `session_members` (`session_id`,`seat`);--> statement-breakpoint
CREATE INDEX `session_members_user` ON `session_members` (`user_id`);--> statement-breakpoint
ALTER TABLE `play_sessions` ADD `turn_mode` text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE `play_sessions` ADD `current_seat` integer DEFAULT 1 NOT NULL;