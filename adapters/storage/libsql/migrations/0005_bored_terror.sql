DROP INDEX `bookings_provider_time_idx`;--> statement-breakpoint
CREATE INDEX `bookings_provider_time_idx` ON `bookings` (`provider_id`,`start_time`,`id`);