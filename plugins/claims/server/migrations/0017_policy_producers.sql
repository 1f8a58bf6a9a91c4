ALTER TABLE "claims"."policy_revision" ADD COLUMN "agent_contact_id" text GENERATED ALWAYS AS (agent_contact->>'id') STORED;--> statement-breakpoint
ALTER TABLE "claims"."policy_revision" ADD COLUMN "agency_contact_id" text GENERATED ALWAYS AS (agency_contact->>'id') STORED;--> statement-breakpoint
CREATE INDEX "claim_policy_revision_idx" ON "claims"."claim" USING btree ("policy_revision_id");--> statement-breakpoint
CREATE INDEX "policy_revision_agent_idx" ON "claims"."policy_revision" USING btree ("agent_contact_id");--> statement-breakpoint
CREATE INDEX "policy_revision_agency_idx" ON "claims"."policy_revision" USING btree ("agency_contact_id");