ALTER TABLE "integrations"."integration" ADD COLUMN "start_outbox_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations"."integration_run" ADD COLUMN "event_id" uuid;--> statement-breakpoint
ALTER TABLE "integrations"."integration_run" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "integration_run_due_idx" ON "integrations"."integration_run" USING btree ("status","lease_until");--> statement-breakpoint
ALTER TABLE "integrations"."integration_run" ADD CONSTRAINT "integration_run_event_uq" UNIQUE("integration_id","event_id");