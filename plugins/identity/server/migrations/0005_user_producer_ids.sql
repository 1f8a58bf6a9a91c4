ALTER TABLE "identity"."user" ADD COLUMN "contact_id" text;--> statement-breakpoint
ALTER TABLE "identity"."user" ADD COLUMN "agency_id" text;--> statement-breakpoint
-- The principal carries contact_id and agency_id (record conditions of agents and agencies), so a
-- change to them must reach every process's authenticator cache like a change of roles does.
DROP TRIGGER "user_changed" ON "identity"."user";--> statement-breakpoint
CREATE TRIGGER "user_changed" AFTER UPDATE ON "identity"."user" FOR EACH ROW
  WHEN (OLD."enabled" IS DISTINCT FROM NEW."enabled"
    OR OLD."tokens_valid_after" IS DISTINCT FROM NEW."tokens_valid_after"
    OR OLD."roles" IS DISTINCT FROM NEW."roles"
    OR OLD."username" IS DISTINCT FROM NEW."username"
    OR OLD."name" IS DISTINCT FROM NEW."name"
    OR OLD."email" IS DISTINCT FROM NEW."email"
    OR OLD."is_employee" IS DISTINCT FROM NEW."is_employee"
    OR OLD."contact_id" IS DISTINCT FROM NEW."contact_id"
    OR OLD."agency_id" IS DISTINCT FROM NEW."agency_id")
  EXECUTE FUNCTION "identity"."bump_revision"();
