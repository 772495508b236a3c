CREATE TABLE `budget_warnings` (
	`scope` text NOT NULL,
	`scope_key` text NOT NULL,
	`period` text NOT NULL,
	`warned_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `scope_key`, `period`)
);
--> statement-breakpoint
CREATE TABLE `usage_daily` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`turns` integer DEFAULT 0 NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`cost_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`)
);
--> statement-breakpoint
CREATE INDEX `usage_daily_day` ON `usage_daily` (`day`);--> statement-breakpoint
CREATE TABLE `usage_session` (
	`session_id` text PRIMARY KEY NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`cost_micros` integer DEFAULT 0 NOT NULL
);
