CREATE SCHEMA "policies";
--> statement-breakpoint
CREATE SEQUENCE "policies"."invoice_number" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 5001 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "policies"."policy_number" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 100001 CACHE 1;--> statement-breakpoint
CREATE TABLE "policies"."billing_schedule" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"product_slug" text,
	"payment_methods" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"factors" jsonb NOT NULL,
	"interval_months" integer DEFAULT 12 NOT NULL,
	"installment_fee" numeric(14, 2) DEFAULT '0' NOT NULL,
	"card_fee" numeric(14, 2) DEFAULT '0' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies"."installment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."installment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	"schedule_id" text NOT NULL,
	"transaction_id" integer,
	"number" integer NOT NULL,
	"due_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"fee" numeric(14, 2) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"invoice_id" integer,
	"payment_method_id" text
);
--> statement-breakpoint
CREATE TABLE "policies"."invoice" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."invoice_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_id" integer NOT NULL,
	"number" text NOT NULL,
	"invoice_date" date NOT NULL,
	"due_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies"."linked_policy" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."linked_policy_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_id" integer NOT NULL,
	"linked_policy_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies"."payment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."payment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_id" integer NOT NULL,
	"invoice_id" integer,
	"received_on" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"method" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies"."policy" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."policy_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"number" text NOT NULL,
	"product_slug" text NOT NULL,
	"policy_type_name" text NOT NULL,
	"state" text,
	"quote_id" text,
	"quote_number" text,
	"named_insured_contact_id" text,
	"named_insured_name" text NOT NULL,
	"agent_contact_id" text,
	"agency_contact_id" text,
	"status" text NOT NULL,
	"cancellation_pending" boolean DEFAULT false NOT NULL,
	"cancellation_pending_date" date,
	"cancellation_pending_reason" text,
	"short_rate" jsonb,
	"created_by" text DEFAULT 'system' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies"."policy_revision" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."policy_revision_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	"number" integer NOT NULL,
	"revision_date" date NOT NULL,
	"revision_state" text DEFAULT 'committed' NOT NULL,
	"policy_status" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"quote_number" text,
	"product_version_id" text,
	"commission_rate" numeric(6, 4) DEFAULT '0.1000' NOT NULL,
	"annual_premium" numeric(14, 2) NOT NULL,
	"written_premium" numeric(14, 2) NOT NULL,
	"written_premium_delta" numeric(14, 2) NOT NULL,
	"risks" jsonb,
	"worksheet" jsonb,
	"contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" text DEFAULT 'system' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies"."policy_status" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."policy_status_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	CONSTRAINT "policy_status_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "policies"."policy_term" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."policy_term_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_id" integer NOT NULL,
	"number" integer NOT NULL,
	"effective_date" date NOT NULL,
	"expiration_date" date NOT NULL,
	"product_version_id" text,
	"premium" numeric(14, 2) NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies"."policy_transaction" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."policy_transaction_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_id" integer NOT NULL,
	"term_id" integer,
	"revision_id" integer,
	"type" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"effective_date" date NOT NULL,
	"status" text DEFAULT 'initiated' NOT NULL,
	"error" text,
	"reason_dismissed" text,
	"auto_bind" boolean DEFAULT false NOT NULL,
	"process_async" boolean DEFAULT true NOT NULL,
	"oos_status" text,
	"triggering_oos_transaction_id" integer,
	"input" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"username" text DEFAULT 'system' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies"."policy_type" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies"."policy_type_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"product_slug" text,
	CONSTRAINT "policy_type_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "policies"."installment" ADD CONSTRAINT "installment_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "policies"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."installment" ADD CONSTRAINT "installment_term_id_policy_term_id_fk" FOREIGN KEY ("term_id") REFERENCES "policies"."policy_term"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."invoice" ADD CONSTRAINT "invoice_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "policies"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."linked_policy" ADD CONSTRAINT "linked_policy_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "policies"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."linked_policy" ADD CONSTRAINT "linked_policy_linked_policy_id_policy_id_fk" FOREIGN KEY ("linked_policy_id") REFERENCES "policies"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."payment" ADD CONSTRAINT "payment_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "policies"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."payment" ADD CONSTRAINT "payment_invoice_id_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "policies"."invoice"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."policy_revision" ADD CONSTRAINT "policy_revision_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "policies"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."policy_revision" ADD CONSTRAINT "policy_revision_term_id_policy_term_id_fk" FOREIGN KEY ("term_id") REFERENCES "policies"."policy_term"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."policy_term" ADD CONSTRAINT "policy_term_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "policies"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."policy_transaction" ADD CONSTRAINT "policy_transaction_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "policies"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."policy_transaction" ADD CONSTRAINT "policy_transaction_term_id_policy_term_id_fk" FOREIGN KEY ("term_id") REFERENCES "policies"."policy_term"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies"."policy_transaction" ADD CONSTRAINT "policy_transaction_revision_id_policy_revision_id_fk" FOREIGN KEY ("revision_id") REFERENCES "policies"."policy_revision"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "installment_policy_idx" ON "policies"."installment" USING btree ("policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_number_key" ON "policies"."invoice" USING btree ("number");--> statement-breakpoint
CREATE INDEX "invoice_policy_idx" ON "policies"."invoice" USING btree ("policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "linked_policy_key" ON "policies"."linked_policy" USING btree ("policy_id","linked_policy_id");--> statement-breakpoint
CREATE INDEX "payment_policy_idx" ON "policies"."payment" USING btree ("policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_number_key" ON "policies"."policy" USING btree ("number");--> statement-breakpoint
CREATE INDEX "policy_insured_idx" ON "policies"."policy" USING btree (lower("named_insured_name"));--> statement-breakpoint
CREATE INDEX "policy_agent_idx" ON "policies"."policy" USING btree ("agent_contact_id");--> statement-breakpoint
CREATE INDEX "policy_agency_idx" ON "policies"."policy" USING btree ("agency_contact_id");--> statement-breakpoint
CREATE INDEX "policy_created_idx" ON "policies"."policy" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_revision_key" ON "policies"."policy_revision" USING btree ("policy_id","number");--> statement-breakpoint
CREATE INDEX "policy_revision_term_idx" ON "policies"."policy_revision" USING btree ("term_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_term_key" ON "policies"."policy_term" USING btree ("policy_id","number");--> statement-breakpoint
CREATE INDEX "policy_transaction_policy_idx" ON "policies"."policy_transaction" USING btree ("policy_id");--> statement-breakpoint
CREATE INDEX "policy_transaction_status_idx" ON "policies"."policy_transaction" USING btree ("status");