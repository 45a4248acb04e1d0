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
ALTER TABLE `services` ADD `waitlist` integer DEFAULT false NOT NULL;