CREATE TABLE `preset_art` (
	`preset_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`expression` text NOT NULL,
	`slot` text NOT NULL,
	`image` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`bytes` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`preset_id`, `kind`, `name`, `expression`),
	FOREIGN KEY (`preset_id`) REFERENCES `presets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `preset_art_slot_unique` ON `preset_art` (`slot`);