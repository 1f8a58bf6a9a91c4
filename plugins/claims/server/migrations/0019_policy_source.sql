ALTER TABLE "claims"."claim" ADD COLUMN "policy_source" text DEFAULT 'mock' NOT NULL;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD COLUMN "policy_ref" text;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD COLUMN "policy_revision_ref" text;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD COLUMN "policy_revision_number" integer;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD COLUMN "policy_coverages" jsonb;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD COLUMN "policy_agent_contact_id" text;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD COLUMN "policy_agency_contact_id" text;--> statement-breakpoint
CREATE INDEX "claim_policy_ref_idx" ON "claims"."claim" USING btree ("policy_ref");