ALTER TABLE "bookings" ADD COLUMN "series_id" text;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "repeatable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "bookings_series_idx" ON "bookings" USING btree ("series_id","start_time");--> statement-breakpoint
CREATE INDEX "bookings_provider_created_idx" ON "bookings" USING btree ("provider_id","created_at");