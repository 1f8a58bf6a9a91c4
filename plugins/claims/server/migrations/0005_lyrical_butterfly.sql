CREATE TABLE "claims"."import_run" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."import_run_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"format" text NOT NULL,
	"rows" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"claims_total" integer DEFAULT 0 NOT NULL,
	"claims_processed" integer DEFAULT 0 NOT NULL,
	"claims_imported" integer DEFAULT 0 NOT NULL,
	"claims_skipped" integer DEFAULT 0 NOT NULL,
	"claims_failed" integer DEFAULT 0 NOT NULL,
	"exposures_imported" integer DEFAULT 0 NOT NULL,
	"entries_imported" integer DEFAULT 0 NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	CONSTRAINT "import_run_status_check" CHECK ("claims"."import_run"."status" in ('queued', 'running', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "claims"."import_run_claim" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."import_run_claim_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"run_id" integer NOT NULL,
	"claim_number" text NOT NULL,
	"outcome" text NOT NULL,
	"claim_id" integer,
	"first_row" integer NOT NULL,
	"exposures" integer DEFAULT 0 NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"detail" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_run_claim_outcome_check" CHECK ("claims"."import_run_claim"."outcome" in ('imported', 'skipped', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "claims"."import_run_claim" ADD CONSTRAINT "import_run_claim_run_id_import_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "claims"."import_run"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."import_run_claim" ADD CONSTRAINT "import_run_claim_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_run_created_idx" ON "claims"."import_run" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "import_run_claim_run_idx" ON "claims"."import_run_claim" USING btree ("run_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "import_run_claim_imported_number_key" ON "claims"."import_run_claim" USING btree ("claim_number") WHERE "claims"."import_run_claim"."outcome" = 'imported';--> statement-breakpoint
CREATE UNIQUE INDEX "import_run_claim_imported_claim_key" ON "claims"."import_run_claim" USING btree ("claim_id") WHERE "claims"."import_run_claim"."outcome" = 'imported';