CREATE TABLE "contacts"."zip_code" (
	"zip" text PRIMARY KEY NOT NULL,
	"city" text NOT NULL,
	"county" text DEFAULT '' NOT NULL,
	"state" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contacts"."contact" ADD COLUMN "number" integer;--> statement-breakpoint
-- CON-1001 is number 1001; named ids (CON-AGENT-ALEX …) take the next numbers of the sequence.
UPDATE "contacts"."contact" SET "number" = substring("id" from 5)::integer WHERE "id" ~ '^CON-[0-9]{1,9}$';--> statement-breakpoint
UPDATE "contacts"."contact" SET "number" = nextval('contacts.contact_number') WHERE "number" IS NULL;--> statement-breakpoint
ALTER TABLE "contacts"."contact" ALTER COLUMN "number" SET DEFAULT nextval('contacts.contact_number');--> statement-breakpoint
ALTER TABLE "contacts"."contact" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts"."contact" ADD COLUMN "gender" text;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_number_key" ON "contacts"."contact" USING btree ("number");
