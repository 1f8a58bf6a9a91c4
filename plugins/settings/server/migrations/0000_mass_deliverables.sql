CREATE SCHEMA "settings";
--> statement-breakpoint
CREATE TABLE "settings"."mass_deliverable" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "settings"."mass_deliverable_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"state" text NOT NULL,
	"deliverable" text NOT NULL,
	"delivery" text NOT NULL,
	"days_before" integer,
	"updated_by" text DEFAULT 'system' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mass_deliverable_key" ON "settings"."mass_deliverable" USING btree ("state","deliverable");--> statement-breakpoint
-- Every installation starts with carrier-wide defaults (state '*'); Settings changes them.
INSERT INTO "settings"."mass_deliverable" ("state", "deliverable", "delivery", "days_before") VALUES
  ('*', 'declarations', 'print-and-email', NULL),
  ('*', 'renewal-offer', 'print', 45),
  ('*', 'invoice', 'email', 20),
  ('*', 'cancellation-notice', 'print', 10),
  ('*', 'reinstatement-notice', 'print', NULL),
  ('*', 'claim-acknowledgement', 'email', NULL);
