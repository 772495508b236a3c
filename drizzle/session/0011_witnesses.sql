CREATE TABLE `witnesses` (
	`kind` text NOT NULL,
	`record_id` integer NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`kind`, `record_id`, `name`)
);
