ALTER TABLE "claims"."payee" ADD COLUMN "party_id" integer;--> statement-breakpoint
ALTER TABLE "claims"."payee" ADD CONSTRAINT "payee_party_id_party_id_fk" FOREIGN KEY ("party_id") REFERENCES "claims"."party"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payee_party_key" ON "claims"."payee" USING btree ("party_id");