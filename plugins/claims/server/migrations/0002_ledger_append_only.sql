-- The ledger is append-only (docs/claims-accounting.md). These triggers refuse, for every role
-- including superusers, any UPDATE or DELETE of posted ledger rows:
--   ledger_entry, payment_batch, payment_batch_item: never updated or deleted;
--   ledger_transaction: never deleted; updated only while pending_approval (to posted or rejected).
CREATE FUNCTION "claims"."ledger_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'claims.%: posted ledger rows cannot be changed or deleted; post a reversing entry instead', TG_TABLE_NAME
    USING ERRCODE = 'P0001', HINT = 'ledger_append_only';
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "claims"."ledger_transaction_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD.status <> 'pending_approval' THEN
    RAISE EXCEPTION 'claims.ledger_transaction: transaction % is %; posted ledger rows cannot be changed or deleted', OLD.number, OLD.status
      USING ERRCODE = 'P0001', HINT = 'ledger_append_only';
  END IF;
  IF NEW.id <> OLD.id OR NEW.number <> OLD.number OR NEW.claim_id <> OLD.claim_id OR NEW.exposure_id <> OLD.exposure_id
     OR NEW.type <> OLD.type OR NEW.requested_by <> OLD.requested_by OR NEW.status NOT IN ('posted', 'rejected') THEN
    RAISE EXCEPTION 'claims.ledger_transaction: a pending transaction may only be posted or rejected'
      USING ERRCODE = 'P0001', HINT = 'ledger_append_only';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entry_append_only" BEFORE UPDATE OR DELETE ON "claims"."ledger_entry"
  FOR EACH ROW EXECUTE FUNCTION "claims"."ledger_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "payment_batch_append_only" BEFORE UPDATE OR DELETE ON "claims"."payment_batch"
  FOR EACH ROW EXECUTE FUNCTION "claims"."ledger_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "payment_batch_item_append_only" BEFORE UPDATE OR DELETE ON "claims"."payment_batch_item"
  FOR EACH ROW EXECUTE FUNCTION "claims"."ledger_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "ledger_transaction_append_only" BEFORE UPDATE OR DELETE ON "claims"."ledger_transaction"
  FOR EACH ROW EXECUTE FUNCTION "claims"."ledger_transaction_guard"();
--> statement-breakpoint
-- TRUNCATE bypasses row triggers: refuse it too.
CREATE TRIGGER "ledger_entry_no_truncate" BEFORE TRUNCATE ON "claims"."ledger_entry"
  FOR EACH STATEMENT EXECUTE FUNCTION "claims"."ledger_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "ledger_transaction_no_truncate" BEFORE TRUNCATE ON "claims"."ledger_transaction"
  FOR EACH STATEMENT EXECUTE FUNCTION "claims"."ledger_refuse_change"();
--> statement-breakpoint
-- Where the app connects as an ordinary role (production PostgreSQL), take the privileges away too.
-- A superuser ignores privileges, which is why the triggers above come first.
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON "claims"."ledger_entry", "claims"."payment_batch", "claims"."payment_batch_item" FROM %I', current_user);
    EXECUTE format('REVOKE DELETE, TRUNCATE ON "claims"."ledger_transaction" FROM %I', current_user);
  END IF;
END;
$$;
