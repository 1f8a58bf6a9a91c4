CREATE TABLE "identity"."revision" (
	"id" integer PRIMARY KEY NOT NULL,
	"value" bigint NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "identity"."revision" ("id", "value") VALUES (1, 1) ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Every change a cached authentication depends on bumps the revision inside the writing
-- transaction, whichever code (or hand-written SQL) made it: servers compare it once a second.
CREATE FUNCTION "identity"."bump_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "identity"."revision" SET "value" = "value" + 1, "changed_at" = now() WHERE "id" = 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Deletes and inserts bump once per statement, and only when the statement touched a row
-- (housekeeping's periodic deletes usually find nothing).
CREATE FUNCTION "identity"."bump_revision_if_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM gone) THEN
    UPDATE "identity"."revision" SET "value" = "value" + 1, "changed_at" = now() WHERE "id" = 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "identity"."bump_revision_if_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM added) THEN
    UPDATE "identity"."revision" SET "value" = "value" + 1, "changed_at" = now() WHERE "id" = 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "user_changed" AFTER UPDATE ON "identity"."user" FOR EACH ROW
  WHEN (OLD."enabled" IS DISTINCT FROM NEW."enabled"
    OR OLD."tokens_valid_after" IS DISTINCT FROM NEW."tokens_valid_after"
    OR OLD."roles" IS DISTINCT FROM NEW."roles"
    OR OLD."username" IS DISTINCT FROM NEW."username"
    OR OLD."name" IS DISTINCT FROM NEW."name"
    OR OLD."email" IS DISTINCT FROM NEW."email"
    OR OLD."is_employee" IS DISTINCT FROM NEW."is_employee")
  EXECUTE FUNCTION "identity"."bump_revision"();
--> statement-breakpoint
CREATE TRIGGER "user_deleted" AFTER DELETE ON "identity"."user" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "identity"."bump_revision_if_deleted"();
--> statement-breakpoint
CREATE TRIGGER "session_revoked" AFTER UPDATE ON "identity"."refresh_token_family" FOR EACH ROW
  WHEN (OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
  EXECUTE FUNCTION "identity"."bump_revision"();
--> statement-breakpoint
CREATE TRIGGER "session_deleted" AFTER DELETE ON "identity"."refresh_token_family" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "identity"."bump_revision_if_deleted"();
--> statement-breakpoint
CREATE TRIGGER "group_renamed" AFTER UPDATE ON "identity"."group" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name")
  EXECUTE FUNCTION "identity"."bump_revision"();
--> statement-breakpoint
CREATE TRIGGER "group_deleted" AFTER DELETE ON "identity"."group" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "identity"."bump_revision_if_deleted"();
--> statement-breakpoint
CREATE TRIGGER "group_member_added" AFTER INSERT ON "identity"."group_member" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "identity"."bump_revision_if_inserted"();
--> statement-breakpoint
CREATE TRIGGER "group_member_changed" AFTER UPDATE ON "identity"."group_member" FOR EACH ROW
  EXECUTE FUNCTION "identity"."bump_revision"();
--> statement-breakpoint
CREATE TRIGGER "group_member_removed" AFTER DELETE ON "identity"."group_member" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "identity"."bump_revision_if_deleted"();
--> statement-breakpoint
CREATE TRIGGER "app_client_changed" AFTER UPDATE ON "identity"."app_client" FOR EACH ROW
  WHEN (OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at"
    OR OLD."role" IS DISTINCT FROM NEW."role"
    OR OLD."name" IS DISTINCT FROM NEW."name"
    OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "identity"."bump_revision"();
--> statement-breakpoint
CREATE TRIGGER "app_client_deleted" AFTER DELETE ON "identity"."app_client" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "identity"."bump_revision_if_deleted"();
--> statement-breakpoint
CREATE TRIGGER "signing_key_retired" AFTER UPDATE ON "identity"."signing_key" FOR EACH ROW
  WHEN (OLD."retired_at" IS DISTINCT FROM NEW."retired_at")
  EXECUTE FUNCTION "identity"."bump_revision"();
--> statement-breakpoint
CREATE TRIGGER "signing_key_deleted" AFTER DELETE ON "identity"."signing_key" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "identity"."bump_revision_if_deleted"();
