CREATE TABLE `admin_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`admin_id` text NOT NULL,
	`admin_name` text NOT NULL,
	`action` text NOT NULL,
	`target_kind` text NOT NULL,
	`target_id` text NOT NULL,
	`target_name` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `admin_audit_at` ON `admin_audit` (`at`);--> statement-breakpoint
CREATE TABLE `password_resets` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_resets_user` ON `password_resets` (`user_id`);--> statement-breakpoint
CREATE TABLE `preset_takedowns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`preset_id` text NOT NULL,
	`author_id` text,
	`fingerprint` text NOT NULL,
	`reason` text NOT NULL,
	`admin_id` text NOT NULL,
	`at` integer NOT NULL,
	`appeal` text,
	`appeal_at` integer,
	`lifted_at` integer
);
--> statement-breakpoint
CREATE INDEX `preset_takedowns_preset` ON `preset_takedowns` (`preset_id`,`at`);--> statement-breakpoint
CREATE INDEX `preset_takedowns_fingerprint` ON `preset_takedowns` (`fingerprint`,`lifted_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `suspended_at` integer;