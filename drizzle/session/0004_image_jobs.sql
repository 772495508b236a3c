ALTER TABLE `image_orders` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `image_orders` ADD `lease_expires_at` integer;--> statement-breakpoint
ALTER TABLE `image_orders` ADD `next_attempt_at` integer;