CREATE SCHEMA "quote";
--> statement-breakpoint
CREATE SEQUENCE "quote"."quote_number" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 100001 CACHE 1;--> statement-breakpoint
CREATE TABLE "quote"."alert" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote"."attachment" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"source" text DEFAULT 'upload' NOT NULL,
	"storage_key" text NOT NULL,
	"uploaded" boolean DEFAULT false NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote"."item" (
	"id" serial PRIMARY KEY NOT NULL,
	"risk_id" integer NOT NULL,
	"name" text NOT NULL,
	"limit" numeric(14, 2),
	"deductible" numeric(14, 2),
	"limits" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote"."payment_method" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"processor" text NOT NULL,
	"token" text NOT NULL,
	"type" text NOT NULL,
	"last4" text NOT NULL,
	"expiry" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote"."quote" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"product_name" text NOT NULL,
	"product_label" text NOT NULL,
	"product_version_id" integer,
	"product_version_label" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'In Progress' NOT NULL,
	"transaction_type" text DEFAULT 'new_business' NOT NULL,
	"effective_date" date NOT NULL,
	"expiration_date" date NOT NULL,
	"state" text,
	"premium_term" numeric(14, 2),
	"premium_pro_rata" numeric(14, 2),
	"worksheet" jsonb,
	"last_rated_at" timestamp with time zone,
	"rating_stale" boolean DEFAULT false NOT NULL,
	"is_bound" boolean DEFAULT false NOT NULL,
	"is_binding" boolean DEFAULT false NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"named_insureds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"agent_contact_id" text,
	"agency_contact_id" text,
	"owner" text NOT NULL,
	"billing_schedule_id" text,
	"payment_method_id" integer,
	"policy_id" text,
	"policy_number" text,
	"source_policy_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote"."risk" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"parent_id" integer,
	"risk_type" text NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"generated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote"."status_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"trigger" text NOT NULL,
	"reason" text,
	"changed_by" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote"."underwriting_issue" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"code" text NOT NULL,
	"severity" text NOT NULL,
	"blocking" text NOT NULL,
	"message" text NOT NULL,
	"rule" text DEFAULT '' NOT NULL,
	"risk" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"authority" text DEFAULT 'Underwriter' NOT NULL,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quote"."alert" ADD CONSTRAINT "alert_quote_id_quote_id_fk" FOREIGN KEY ("quote_id") REFERENCES "quote"."quote"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote"."attachment" ADD CONSTRAINT "attachment_quote_id_quote_id_fk" FOREIGN KEY ("quote_id") REFERENCES "quote"."quote"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote"."item" ADD CONSTRAINT "item_risk_id_risk_id_fk" FOREIGN KEY ("risk_id") REFERENCES "quote"."risk"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote"."payment_method" ADD CONSTRAINT "payment_method_quote_id_quote_id_fk" FOREIGN KEY ("quote_id") REFERENCES "quote"."quote"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote"."risk" ADD CONSTRAINT "risk_quote_id_quote_id_fk" FOREIGN KEY ("quote_id") REFERENCES "quote"."quote"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote"."status_history" ADD CONSTRAINT "status_history_quote_id_quote_id_fk" FOREIGN KEY ("quote_id") REFERENCES "quote"."quote"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote"."underwriting_issue" ADD CONSTRAINT "underwriting_issue_quote_id_quote_id_fk" FOREIGN KEY ("quote_id") REFERENCES "quote"."quote"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_quote_idx" ON "quote"."alert" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "attachment_quote_idx" ON "quote"."attachment" USING btree ("quote_id");--> statement-breakpoint
CREATE UNIQUE INDEX "item_risk_name_key" ON "quote"."item" USING btree ("risk_id","name");--> statement-breakpoint
CREATE INDEX "payment_method_quote_idx" ON "quote"."payment_method" USING btree ("quote_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quote_number_key" ON "quote"."quote" USING btree ("number");--> statement-breakpoint
CREATE INDEX "quote_agent_idx" ON "quote"."quote" USING btree ("agent_contact_id");--> statement-breakpoint
CREATE INDEX "quote_agency_idx" ON "quote"."quote" USING btree ("agency_contact_id");--> statement-breakpoint
CREATE INDEX "quote_status_idx" ON "quote"."quote" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "risk_quote_idx" ON "quote"."risk" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "status_history_quote_idx" ON "quote"."status_history" USING btree ("quote_id");--> statement-breakpoint
CREATE UNIQUE INDEX "issue_quote_code_risk_key" ON "quote"."underwriting_issue" USING btree ("quote_id","code","risk");--> statement-breakpoint
CREATE INDEX "issue_open_idx" ON "quote"."underwriting_issue" USING btree ("status");