ALTER TABLE `usage_session` ADD `canon_rewrites` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_session` ADD `canon_stopped` integer DEFAULT 0 NOT NULL;