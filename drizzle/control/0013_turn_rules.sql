ALTER TABLE `play_sessions` ADD `seat_since` integer;--> statement-breakpoint
ALTER TABLE `play_sessions` ADD `skip_after_seconds` integer DEFAULT 300 NOT NULL;