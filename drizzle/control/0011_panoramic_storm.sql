CREATE TABLE `preset_audio` (
	`preset_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`slot` text NOT NULL,
	`file` text NOT NULL,
	`bytes` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`preset_id`, `kind`, `name`),
	FOREIGN KEY (`preset_id`) REFERENCES `presets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `preset_audio_slot_unique` ON `preset_audio` (`slot`);