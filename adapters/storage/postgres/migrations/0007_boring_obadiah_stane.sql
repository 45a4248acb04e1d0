CREATE TABLE "calendar_writes" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"booking_id" text NOT NULL,
	"revision" integer NOT NULL,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"next_attempt_at" bigint,
	"lease_until" bigint,
	"lease_owner" text,
	"last_error" text,
	"written_connection_id" text,
	"written_calendar_id" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "calendar_writes_booking_id_unique" UNIQUE("booking_id")
);
--> statement-breakpoint
ALTER TABLE "calendar_writes" ADD CONSTRAINT "calendar_writes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_writes" ADD CONSTRAINT "calendar_writes_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_writes_due_idx" ON "calendar_writes" USING btree ("status","next_attempt_at");