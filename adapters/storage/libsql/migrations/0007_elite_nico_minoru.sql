CREATE TABLE `calendar_writes` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`booking_id` text NOT NULL,
	`revision` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` integer,
	`lease_until` integer,
	`lease_owner` text,
	`last_error` text,
	`written_connection_id` text,
	`written_calendar_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_writes_booking_id_unique` ON `calendar_writes` (`booking_id`);--> statement-breakpoint
CREATE INDEX `calendar_writes_due_idx` ON `calendar_writes` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`booking_id` text NOT NULL,
	`payment_id` text NOT NULL,
	`provider` text NOT NULL,
	`reference` text,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `refunds_booking_idx` ON `refunds` (`booking_id`);--> statement-breakpoint
CREATE TABLE `waitlist_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`service_id` text NOT NULL,
	`provider_id` text,
	`status` text NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`buffer_time` integer NOT NULL,
	`customer_email` text NOT NULL,
	`customer_name` text,
	`phone` text,
	`held_provider_id` text,
	`offer_expires_at` integer,
	`offer_token_hash` text,
	`offer_token_sealed` text,
	`mail_due_at` integer,
	`booking_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`provider_id`) REFERENCES `providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `waitlist_queue_idx` ON `waitlist_entries` (`service_id`,`start_time`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `waitlist_held_idx` ON `waitlist_entries` (`held_provider_id`,`status`,`start_time`);--> statement-breakpoint
CREATE INDEX `waitlist_status_idx` ON `waitlist_entries` (`status`,`offer_expires_at`);--> statement-breakpoint
CREATE INDEX `waitlist_workspace_idx` ON `waitlist_entries` (`workspace_id`,`start_time`);--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_token_idx` ON `waitlist_entries` (`offer_token_hash`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `price_minor` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `paid_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `refunded_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `series_id` text;--> statement-breakpoint
CREATE INDEX `bookings_series_idx` ON `bookings` (`series_id`,`start_time`);--> statement-breakpoint
CREATE INDEX `bookings_provider_created_idx` ON `bookings` (`provider_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `calendar_connections` ADD `sync_due_at` integer;--> statement-breakpoint
ALTER TABLE `calendar_connections` ADD `sync_lease_owner` text;--> statement-breakpoint
ALTER TABLE `calendar_connections` ADD `sync_lease_until` integer;--> statement-breakpoint
ALTER TABLE `calendar_connections` ADD `failure_notice_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `waitlist` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `repeatable` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `refund_on_cancel` integer DEFAULT false NOT NULL;