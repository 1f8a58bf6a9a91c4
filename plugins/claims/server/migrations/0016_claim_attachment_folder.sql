-- A claim has its attachment folder from creation (issue 15, item 7): the root of its tree, named and
-- referenced by the claim number, made by the insert that makes the claim (the FNOL, an import, the
-- seeds and bulk loads alike) unless the insert names one.
CREATE OR REPLACE FUNCTION "claims"."claim_attachment_folder"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."exposures_folder_id" IS NULL THEN
    INSERT INTO "claims"."attachment_folder" ("name", "reference_id")
      VALUES (NEW."number", NEW."number")
      RETURNING "id" INTO NEW."exposures_folder_id";
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "claim_attachment_folder" BEFORE INSERT ON "claims"."claim"
  FOR EACH ROW EXECUTE FUNCTION "claims"."claim_attachment_folder"();--> statement-breakpoint
-- Existing claims: the root folder their number already has, else a new one.
UPDATE "claims"."claim" c SET "exposures_folder_id" = f."id"
  FROM (SELECT DISTINCT ON ("reference_id") "id", "reference_id" FROM "claims"."attachment_folder"
        WHERE "parent_id" IS NULL ORDER BY "reference_id", "id") f
  WHERE c."exposures_folder_id" IS NULL AND f."reference_id" = c."number";--> statement-breakpoint
WITH "made" AS (
  INSERT INTO "claims"."attachment_folder" ("name", "reference_id")
  SELECT "number", "number" FROM "claims"."claim" WHERE "exposures_folder_id" IS NULL
  RETURNING "id", "reference_id"
)
UPDATE "claims"."claim" c SET "exposures_folder_id" = "made"."id"
  FROM "made" WHERE c."number" = "made"."reference_id" AND c."exposures_folder_id" IS NULL;
