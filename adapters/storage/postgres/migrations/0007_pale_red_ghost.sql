ALTER TABLE "calendar_connections" ADD COLUMN "sync_due_at" bigint;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "sync_lease_owner" text;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "sync_lease_until" bigint;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "failure_notice_pending" boolean DEFAULT false NOT NULL;