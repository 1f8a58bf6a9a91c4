ALTER TABLE "claims"."exposure" ADD COLUMN "coverage_type" text;--> statement-breakpoint
ALTER TABLE "claims"."exposure" ADD COLUMN "policy_revision_id" integer;--> statement-breakpoint
ALTER TABLE "claims"."policy_revision" ADD COLUMN "coverages" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Existing exposures: the coverage type is the name of the coverage row they named, on the
-- revision their claim was filed on (the claim's, else its policy's first revision).
UPDATE "claims"."claim" cl SET "policy_revision_id" = (
  SELECT min(r."id") FROM "claims"."policy_revision" r WHERE r."policy_id" = cl."policy_id"
) WHERE cl."policy_revision_id" IS NULL AND cl."policy_id" IS NOT NULL;--> statement-breakpoint
UPDATE "claims"."exposure" e SET "coverage_type" = c."name"
  FROM "claims"."coverage" c WHERE c."id" = e."coverage_id" AND e."coverage_type" IS NULL;--> statement-breakpoint
UPDATE "claims"."exposure" e SET "policy_revision_id" = cl."policy_revision_id"
  FROM "claims"."claim" cl WHERE cl."id" = e."claim_id" AND e."coverage_type" IS NOT NULL AND e."policy_revision_id" IS NULL;
