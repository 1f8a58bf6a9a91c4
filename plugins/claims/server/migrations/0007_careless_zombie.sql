ALTER TABLE "claims"."attachment" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "claims"."attachment" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "claims"."attachment" ADD COLUMN "sha256" text;--> statement-breakpoint
CREATE UNIQUE INDEX "attachment_storage_key_idx" ON "claims"."attachment" USING btree ("storage_key");--> statement-breakpoint
ALTER TABLE "claims"."attachment" ADD CONSTRAINT "attachment_bytes_somewhere" CHECK ("claims"."attachment"."storage_key" IS NOT NULL OR "claims"."attachment"."content" IS NOT NULL);