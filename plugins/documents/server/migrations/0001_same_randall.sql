ALTER TABLE "documents"."production_document" ADD COLUMN "record_type" text;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD COLUMN "record_id" text;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD COLUMN "agent_contact_id" text;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD COLUMN "agency_contact_id" text;--> statement-breakpoint
CREATE INDEX "production_document_record_idx" ON "documents"."production_document" USING btree ("record_type","record_id");