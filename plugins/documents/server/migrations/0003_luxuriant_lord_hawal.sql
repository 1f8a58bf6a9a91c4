CREATE TABLE "documents"."setting" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD COLUMN "purpose" text;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD COLUMN "purpose_key" text;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD COLUMN "parts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "production_document_purpose_uq" ON "documents"."production_document" USING btree ("purpose","purpose_key");