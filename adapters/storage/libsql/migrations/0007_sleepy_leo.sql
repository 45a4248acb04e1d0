ALTER TABLE `bookings` ADD `series_id` text;--> statement-breakpoint
CREATE INDEX `bookings_series_idx` ON `bookings` (`series_id`,`start_time`);--> statement-breakpoint
CREATE INDEX `bookings_provider_created_idx` ON `bookings` (`provider_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `services` ADD `repeatable` integer DEFAULT false NOT NULL;