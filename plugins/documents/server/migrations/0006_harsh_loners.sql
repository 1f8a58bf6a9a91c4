ALTER TABLE "documents"."production_document" ADD COLUMN "print_state" text DEFAULT 'not_printed' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD COLUMN "print_state_by" text;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD COLUMN "print_state_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD COLUMN "last_mail_id" integer;--> statement-breakpoint
CREATE INDEX "production_document_print_state_idx" ON "documents"."production_document" USING btree ("print_state");