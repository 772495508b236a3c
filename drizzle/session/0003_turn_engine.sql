CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`turn_id` text,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_turn` ON `events` (`turn_id`);--> statement-breakpoint
CREATE TABLE `image_orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`turn_id` text,
	`target` text NOT NULL,
	`target_name` text NOT NULL,
	`prompt` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`image` text,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `image_orders_status` ON `image_orders` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`turn_id` text NOT NULL,
	`outcome` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer NOT NULL,
	`cached_input_tokens` integer NOT NULL,
	`cache_write_tokens` integer NOT NULL,
	`output_tokens` integer NOT NULL,
	`cost_micros` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ledger_turn` ON `ledger` (`turn_id`);--> statement-breakpoint
CREATE TABLE `npcs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`appearance` text NOT NULL,
	`sprite_image` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `npcs_name_unique` ON `npcs` (`name`);--> statement-breakpoint
CREATE TABLE `scenes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`background_image` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scenes_name_unique` ON `scenes` (`name`);--> statement-breakpoint
CREATE TABLE `stage_cues` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`turn_id` text NOT NULL,
	`message_id` integer NOT NULL,
	`paragraph` integer NOT NULL,
	`ord` integer NOT NULL,
	`cue` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `stage_cues_message` ON `stage_cues` (`message_id`,`paragraph`,`ord`);--> statement-breakpoint
CREATE TABLE `turns` (
	`id` text PRIMARY KEY NOT NULL,
	`idempotency_key` text NOT NULL,
	`kind` text NOT NULL,
	`user_id` text NOT NULL,
	`input` text NOT NULL,
	`status` text NOT NULL,
	`reply` text,
	`error` text,
	`stopped` text,
	`provider` text,
	`model` text,
	`cancel_requested` integer DEFAULT false NOT NULL,
	`seq` integer,
	`tokens` integer,
	`lease_owner` text,
	`lease_expires_at` integer,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `turns_idempotency_key_unique` ON `turns` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `turns_status` ON `turns` (`status`,`created_at`);