CREATE TABLE "calendar_busy_times" (
	"connection_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"calendar_id" text NOT NULL,
	"start" bigint NOT NULL,
	"end" bigint NOT NULL,
	"uid" text NOT NULL,
	"blocks" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"url" text,
	"account" text,
	"username" text,
	"sealed_secret" text,
	"status" text NOT NULL,
	"last_synced_at" bigint,
	"last_error" text,
	"failures" integer NOT NULL,
	"calendars" jsonb NOT NULL,
	"sync_state" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_busy_times" ADD CONSTRAINT "calendar_busy_times_connection_id_calendar_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."calendar_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_busy_times_provider_idx" ON "calendar_busy_times" USING btree ("provider_id","start");--> statement-breakpoint
CREATE INDEX "calendar_busy_times_connection_idx" ON "calendar_busy_times" USING btree ("connection_id","calendar_id");--> statement-breakpoint
CREATE INDEX "calendar_connections_provider_idx" ON "calendar_connections" USING btree ("provider_id");