ALTER TABLE `workspaces` ADD `locale` text;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `contact_email` text;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `contact_phone` text;