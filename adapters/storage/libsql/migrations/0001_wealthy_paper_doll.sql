CREATE TABLE `panel_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`subject` text NOT NULL,
	`capabilities` text NOT NULL,
	`origin` text,
	`signed_in_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `panel_sessions_token_hash_unique` ON `panel_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `panel_sessions_workspace_idx` ON `panel_sessions` (`workspace_id`,`origin`);--> statement-breakpoint
CREATE INDEX `panel_sessions_expiry_idx` ON `panel_sessions` (`expires_at`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `last_used_at` integer;--> statement-breakpoint
CREATE INDEX `api_keys_workspace_idx` ON `api_keys` (`workspace_id`);--> statement-breakpoint
ALTER TABLE `host_credentials` ADD `platform` text DEFAULT 'hostplatform' NOT NULL;--> statement-breakpoint
ALTER TABLE `host_credentials` ADD `last_used_at` integer;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `logo_url` text;