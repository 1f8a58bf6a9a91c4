CREATE TABLE "claims"."payment_clearance" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."payment_clearance_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"transaction_id" integer NOT NULL,
	"cleared_date" date,
	"corrects_id" integer,
	"reason" text,
	"recorded_by" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claims"."payment_clearance" ADD CONSTRAINT "payment_clearance_transaction_id_ledger_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "claims"."ledger_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."payment_clearance" ADD CONSTRAINT "payment_clearance_corrects_id_payment_clearance_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "claims"."payment_clearance"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_clearance_transaction_idx" ON "claims"."payment_clearance" USING btree ("transaction_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_clearance_corrects_key" ON "claims"."payment_clearance" USING btree ("corrects_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_clearance_first_key" ON "claims"."payment_clearance" USING btree ("transaction_id") WHERE "claims"."payment_clearance"."corrects_id" is null;