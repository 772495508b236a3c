ALTER TABLE `turns` ADD `sender_id` text;--> statement-breakpoint
ALTER TABLE `turns` ADD `merged_into` text;