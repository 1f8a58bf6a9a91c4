CREATE TABLE "claims"."claim_balance" (
	"claim_id" integer PRIMARY KEY NOT NULL,
	"reserve_outstanding" numeric(14, 2) DEFAULT '0' NOT NULL,
	"paid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"recovered" numeric(14, 2) DEFAULT '0' NOT NULL,
	"total_incurred" numeric(14, 2) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claims"."claim_balance" ADD CONSTRAINT "claim_balance_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every insert into ledger_entry (a posting, a void, an import, a bulk load) adds its sums to the
-- claims' balance rows in the same statement's transaction, once per statement (transition table),
-- so a bulk load of millions of entries makes one upsert per claim, not one per entry.
CREATE OR REPLACE FUNCTION "claims"."ledger_entry_to_claim_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "claims"."claim_balance" AS b ("claim_id", "reserve_outstanding", "paid", "recovered", "total_incurred")
  SELECT "claim_id",
         coalesce(sum("amount") FILTER (WHERE "kind" IN ('reserve_change', 'reserve_erosion', 'reserve_close')), 0),
         coalesce(sum("amount") FILTER (WHERE "kind" = 'payment'), 0),
         coalesce(sum("amount") FILTER (WHERE "kind" = 'recovery'), 0),
         coalesce(sum("amount") FILTER (WHERE "kind" <> 'recovery'), 0)
    FROM new_entries GROUP BY "claim_id"
  ON CONFLICT ("claim_id") DO UPDATE SET
    "reserve_outstanding" = b."reserve_outstanding" + excluded."reserve_outstanding",
    "paid" = b."paid" + excluded."paid",
    "recovered" = b."recovered" + excluded."recovered",
    "total_incurred" = b."total_incurred" + excluded."total_incurred";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_entry_claim_balance" AFTER INSERT ON "claims"."ledger_entry"
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT
  EXECUTE FUNCTION "claims"."ledger_entry_to_claim_balance"();--> statement-breakpoint
-- Existing claims: their balances from the ledger so far.
INSERT INTO "claims"."claim_balance" ("claim_id", "reserve_outstanding", "paid", "recovered", "total_incurred")
SELECT "claim_id",
       coalesce(sum("amount") FILTER (WHERE "kind" IN ('reserve_change', 'reserve_erosion', 'reserve_close')), 0),
       coalesce(sum("amount") FILTER (WHERE "kind" = 'payment'), 0),
       coalesce(sum("amount") FILTER (WHERE "kind" = 'recovery'), 0),
       coalesce(sum("amount") FILTER (WHERE "kind" <> 'recovery'), 0)
  FROM "claims"."ledger_entry" GROUP BY "claim_id"
ON CONFLICT ("claim_id") DO NOTHING;
