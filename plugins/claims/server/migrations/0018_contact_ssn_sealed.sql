-- SSNs sealed at rest (issue 14, hole 9): a contact's SSN moves into ssn_sealed (AES-256-GCM by the
-- secrets service) and ssn_hash (HMAC-SHA256 under a key derived from ATRIUM_SECRET_KEY, which
-- duplicate checks compare). SQL has no key, so the existing plaintext stays in "ssn" until the
-- sealing pass (integrations/contact-ssns.ts: at start, at the first contacts request, and when a
-- read meets such a row) moves it and empties the column; reads handle both until then. The index on
-- the plaintext goes.
DROP INDEX "claims"."contact_ssn_idx";--> statement-breakpoint
ALTER TABLE "claims"."contact" ADD COLUMN "ssn_sealed" text;--> statement-breakpoint
ALTER TABLE "claims"."contact" ADD COLUMN "ssn_hash" text;--> statement-breakpoint
CREATE INDEX "contact_ssn_hash_idx" ON "claims"."contact" USING btree ("ssn_hash");