-- Payment clearances are append-only like the rest of the ledger (docs/claims-accounting.md): a
-- correction is a new row naming the one it corrects, never an update or a delete.
CREATE TRIGGER "payment_clearance_append_only" BEFORE UPDATE OR DELETE ON "claims"."payment_clearance"
  FOR EACH ROW EXECUTE FUNCTION "claims"."ledger_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "payment_clearance_no_truncate" BEFORE TRUNCATE ON "claims"."payment_clearance"
  FOR EACH STATEMENT EXECUTE FUNCTION "claims"."ledger_refuse_change"();
--> statement-breakpoint
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON "claims"."payment_clearance" FROM %I', current_user);
  END IF;
END;
$$;
