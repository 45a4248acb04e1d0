CREATE TABLE "panel_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"subject" text NOT NULL,
	"capabilities" jsonb NOT NULL,
	"origin" text,
	"signed_in_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "panel_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" bigint;--> statement-breakpoint
ALTER TABLE "host_credentials" ADD COLUMN "platform" text DEFAULT 'hostplatform' NOT NULL;--> statement-breakpoint
ALTER TABLE "host_credentials" ADD COLUMN "last_used_at" bigint;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "logo_url" text;--> statement-breakpoint
ALTER TABLE "panel_sessions" ADD CONSTRAINT "panel_sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "panel_sessions_workspace_idx" ON "panel_sessions" USING btree ("workspace_id","origin");--> statement-breakpoint
CREATE INDEX "panel_sessions_expiry_idx" ON "panel_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "api_keys_workspace_idx" ON "api_keys" USING btree ("workspace_id");