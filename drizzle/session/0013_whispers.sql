ALTER TABLE `turns` ADD `whisper_by` text;--> statement-breakpoint
ALTER TABLE `turns` ADD `whisper_as` text;