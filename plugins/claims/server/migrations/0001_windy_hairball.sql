CREATE SEQUENCE "claims"."payment_batch_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "claims"."ledger_transaction_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "claims"."authority_limit" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."authority_limit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"subject_type" text NOT NULL,
	"subject" text NOT NULL,
	"kind" text NOT NULL,
	"per_transaction" numeric(14, 2),
	"per_coverage" numeric(14, 2),
	"per_claim" numeric(14, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "authority_limit_subject_type_check" CHECK ("claims"."authority_limit"."subject_type" in ('user', 'role')),
	CONSTRAINT "authority_limit_kind_check" CHECK ("claims"."authority_limit"."kind" in ('reserve', 'payment'))
);
--> statement-breakpoint
CREATE TABLE "claims"."idempotency_key" (
	"username" text NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"completed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_key_username_scope_key_pk" PRIMARY KEY("username","scope","key")
);
--> statement-breakpoint
CREATE TABLE "claims"."ledger_entry" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."ledger_entry_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_id" integer NOT NULL,
	"claim_id" integer NOT NULL,
	"exposure_id" integer NOT NULL,
	"reserve_category" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"reverses_entry_id" bigint,
	"posted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entry_kind_check" CHECK ("claims"."ledger_entry"."kind" in ('reserve_change', 'reserve_erosion', 'reserve_close', 'payment', 'recovery'))
);
--> statement-breakpoint
CREATE TABLE "claims"."ledger_transaction" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."ledger_transaction_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"number" text NOT NULL,
	"claim_id" integer NOT NULL,
	"exposure_id" integer NOT NULL,
	"type" text NOT NULL,
	"reserve_category" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"status" text NOT NULL,
	"posted_at" timestamp with time zone,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"reverses_transaction_id" integer,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"authority" jsonb,
	CONSTRAINT "ledger_transaction_type_check" CHECK ("claims"."ledger_transaction"."type" in ('reserve', 'payment', 'recovery', 'payment_void', 'recovery_void')),
	CONSTRAINT "ledger_transaction_status_check" CHECK ("claims"."ledger_transaction"."status" in ('pending_approval', 'posted', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "claims"."payee" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."payee_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"payee_type" text DEFAULT 'person' NOT NULL,
	"tax_id" text,
	"email" text,
	"address" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."payment_batch" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."payment_batch_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"number" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"payments_count" integer NOT NULL,
	"run_by" text NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."payment_batch_item" (
	"batch_id" integer NOT NULL,
	"transaction_id" integer NOT NULL,
	"check_number" text NOT NULL,
	CONSTRAINT "payment_batch_item_batch_id_transaction_id_pk" PRIMARY KEY("batch_id","transaction_id")
);
--> statement-breakpoint
CREATE TABLE "claims"."payor" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."payor_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"payor_type" text DEFAULT 'insurer' NOT NULL,
	"email" text,
	"address" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claims"."ledger_entry" ADD CONSTRAINT "ledger_entry_transaction_id_ledger_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "claims"."ledger_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."ledger_entry" ADD CONSTRAINT "ledger_entry_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."ledger_entry" ADD CONSTRAINT "ledger_entry_exposure_id_exposure_id_fk" FOREIGN KEY ("exposure_id") REFERENCES "claims"."exposure"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."ledger_entry" ADD CONSTRAINT "ledger_entry_reverses_entry_id_ledger_entry_id_fk" FOREIGN KEY ("reverses_entry_id") REFERENCES "claims"."ledger_entry"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."ledger_transaction" ADD CONSTRAINT "ledger_transaction_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."ledger_transaction" ADD CONSTRAINT "ledger_transaction_exposure_id_exposure_id_fk" FOREIGN KEY ("exposure_id") REFERENCES "claims"."exposure"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."ledger_transaction" ADD CONSTRAINT "ledger_transaction_reverses_transaction_id_ledger_transaction_id_fk" FOREIGN KEY ("reverses_transaction_id") REFERENCES "claims"."ledger_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."payment_batch_item" ADD CONSTRAINT "payment_batch_item_batch_id_payment_batch_id_fk" FOREIGN KEY ("batch_id") REFERENCES "claims"."payment_batch"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."payment_batch_item" ADD CONSTRAINT "payment_batch_item_transaction_id_ledger_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "claims"."ledger_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "authority_limit_subject_kind_key" ON "claims"."authority_limit" USING btree ("subject_type",lower("subject"),"kind");--> statement-breakpoint
CREATE INDEX "ledger_entry_claim_idx" ON "claims"."ledger_entry" USING btree ("claim_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entry_exposure_idx" ON "claims"."ledger_entry" USING btree ("exposure_id");--> statement-breakpoint
CREATE INDEX "ledger_entry_transaction_idx" ON "claims"."ledger_entry" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entry_reverses_key" ON "claims"."ledger_entry" USING btree ("reverses_entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transaction_number_key" ON "claims"."ledger_transaction" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transaction_reverses_key" ON "claims"."ledger_transaction" USING btree ("reverses_transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_transaction_claim_idx" ON "claims"."ledger_transaction" USING btree ("claim_id","id");--> statement-breakpoint
CREATE INDEX "ledger_transaction_exposure_idx" ON "claims"."ledger_transaction" USING btree ("exposure_id");--> statement-breakpoint
CREATE INDEX "ledger_transaction_status_idx" ON "claims"."ledger_transaction" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_batch_number_key" ON "claims"."payment_batch" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_batch_item_transaction_key" ON "claims"."payment_batch_item" USING btree ("transaction_id");