ALTER TABLE "workspaces" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "contact_email" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "contact_phone" text;