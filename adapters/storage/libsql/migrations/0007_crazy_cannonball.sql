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
CREATE INDEX `calendar_writes_due_idx` ON `calendar_writes` (`status`,`next_attempt_at`);