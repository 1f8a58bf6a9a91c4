-- Claim quick search matches any part of the number (number ILIKE '%…%'). With a million claims that
-- reads every number unless a trigram index serves it (docs/claims.md, P2). pg_trgm ships with
-- PostgreSQL's contrib and is a trusted extension; where it cannot be created (no contrib, or the
-- embedded PGlite, which loads no extension) the index is skipped and the search scans, which is fine
-- at those sizes.
DO $$
DECLARE
  trgm_schema text;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN others THEN
    RAISE NOTICE 'pg_trgm is not available (%): claim number search runs without a trigram index', SQLERRM;
    RETURN;
  END;
  SELECT quote_ident(n.nspname) INTO trgm_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  EXECUTE format('CREATE INDEX IF NOT EXISTS "claim_number_trgm_idx" ON "claims"."claim" USING gin ("number" %s.gin_trgm_ops)', trgm_schema);
END;
$$;
