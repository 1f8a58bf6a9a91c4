ALTER TABLE "claims"."claim" ALTER COLUMN "product_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD COLUMN "fnol_claimants" jsonb DEFAULT '[]'::jsonb NOT NULL;