CREATE TABLE `calendar_feeds` (
	`provider_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`provider_id`) REFERENCES `providers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_hash_unique` ON `calendar_feeds` (`token_hash`);--> statement-breakpoint
CREATE TABLE `mail_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`booking_id` text NOT NULL,
	`kind` text NOT NULL,
	`revision` integer NOT NULL,
	`snapshot` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` integer,
	`lease_until` integer,
	`lease_owner` text,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_messages_once_idx` ON `mail_messages` (`booking_id`,`kind`,`revision`);--> statement-breakpoint
CREATE INDEX `mail_messages_due_idx` ON `mail_messages` (`status`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `manage_token_hash` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `manage_token_sealed` text;--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_manage_token_idx` ON `bookings` (`manage_token_hash`);--> statement-breakpoint
CREATE INDEX `bookings_status_start_idx` ON `bookings` (`status`,`start_time`);--> statement-breakpoint
ALTER TABLE `payments` ADD `checkout_url` text;