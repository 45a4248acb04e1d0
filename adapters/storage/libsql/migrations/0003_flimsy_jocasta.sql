CREATE TABLE `calendar_busy_times` (
	`connection_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`calendar_id` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`uid` text NOT NULL,
	`blocks` integer NOT NULL,
	FOREIGN KEY (`connection_id`) REFERENCES `calendar_connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `calendar_busy_times_provider_idx` ON `calendar_busy_times` (`provider_id`,`start`);--> statement-breakpoint
CREATE INDEX `calendar_busy_times_connection_idx` ON `calendar_busy_times` (`connection_id`,`calendar_id`);--> statement-breakpoint
CREATE TABLE `calendar_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`url` text,
	`account` text,
	`username` text,
	`sealed_secret` text,
	`status` text NOT NULL,
	`last_synced_at` integer,
	`last_error` text,
	`failures` integer NOT NULL,
	`calendars` text NOT NULL,
	`sync_state` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`provider_id`) REFERENCES `providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `calendar_connections_provider_idx` ON `calendar_connections` (`provider_id`);