-- Interrupted import runs can be resumed (docs/claims-import.md): the job records a heartbeat with
-- each claim, a resume takes the run over by its attempt number, and a claim has one outcome per run.
ALTER TABLE "claims"."import_run" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claims"."import_run" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "import_run_claim_run_number_key" ON "claims"."import_run_claim" USING btree ("run_id","claim_number");