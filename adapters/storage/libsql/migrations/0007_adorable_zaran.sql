ALTER TABLE `calendar_connections` ADD `sync_due_at` integer;--> statement-breakpoint
ALTER TABLE `calendar_connections` ADD `sync_lease_owner` text;--> statement-breakpoint
ALTER TABLE `calendar_connections` ADD `sync_lease_until` integer;--> statement-breakpoint
ALTER TABLE `calendar_connections` ADD `failure_notice_pending` integer DEFAULT false NOT NULL;