CREATE SCHEMA "lines";
--> statement-breakpoint
CREATE TABLE "lines"."calculation" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."calculation_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_version_id" integer NOT NULL,
	"risk_type_id" integer NOT NULL,
	"risk_item_id" integer,
	"name" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"calculation" text NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"round_places" integer,
	"round_mode" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lines"."field_format" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."field_format_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"label" text NOT NULL,
	"field_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pattern" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lines"."item_limit" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."item_limit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_version_id" integer NOT NULL,
	"risk_item_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"label" text NOT NULL,
	"default_value" numeric,
	"min_value" numeric,
	"max_value" numeric,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "item_limit_kind_check" CHECK ("lines"."item_limit"."kind" in ('limit', 'deductible'))
);
--> statement-breakpoint
CREATE TABLE "lines"."line" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."line_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"label" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lines"."product" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."product_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"line_id" integer NOT NULL,
	"parent_product_id" integer,
	"depth" integer DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_depth_check" CHECK ("lines"."product"."depth" between 1 and 3)
);
--> statement-breakpoint
CREATE TABLE "lines"."product_export" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."product_export_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"product_version_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"format" text DEFAULT 'json' NOT NULL,
	"file_name" text,
	"content_type" text,
	"file" "bytea",
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "product_export_status_check" CHECK ("lines"."product_export"."status" in ('pending', 'ready', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "lines"."product_import" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."product_import_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"line_id" integer,
	"product_id" integer,
	"product_version_id" integer,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"file" "bytea" NOT NULL,
	"overwrite" boolean DEFAULT false NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "product_import_status_check" CHECK ("lines"."product_import"."status" in ('uploaded', 'importing', 'imported', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "lines"."product_mapping" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."product_mapping_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"product_version_id" integer NOT NULL,
	"mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lines"."product_version" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."product_version_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"parent_version_id" integer,
	"copied_from_version_id" integer,
	"number" integer NOT NULL,
	"label" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"effective_date" date NOT NULL,
	"premium_rounding_places" integer DEFAULT 2 NOT NULL,
	"premium_rounding_mode" text DEFAULT 'half-up' NOT NULL,
	"published_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_version_status_check" CHECK ("lines"."product_version"."status" in ('draft', 'published', 'retired')),
	CONSTRAINT "product_version_rounding_check" CHECK ("lines"."product_version"."premium_rounding_mode" in ('half-up', 'half-even', 'down', 'up'))
);
--> statement-breakpoint
CREATE TABLE "lines"."rate_table" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."rate_table_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_version_id" integer NOT NULL,
	"risk_type_id" integer,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"key_columns" jsonb NOT NULL,
	"interpolate" text,
	"default_value" numeric,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lines"."rate_table_row" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."rate_table_row_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rate_table_id" integer NOT NULL,
	"keys" jsonb NOT NULL,
	"value" numeric NOT NULL,
	"row_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lines"."risk_field" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."risk_field_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_version_id" integer NOT NULL,
	"risk_type_id" integer NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"default_value" text,
	"default_label" text,
	"source" text,
	"order" integer DEFAULT 0 NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"format_id" integer,
	"options" jsonb,
	"formula" text,
	"round_places" integer,
	"round_mode" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "risk_field_type_check" CHECK ("lines"."risk_field"."type" in ('date', 'boolean', 'string', 'number', 'enum', 'computed')),
	CONSTRAINT "risk_field_formula_check" CHECK (("lines"."risk_field"."type" = 'computed') = ("lines"."risk_field"."formula" is not null))
);
--> statement-breakpoint
CREATE TABLE "lines"."risk_item" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."risk_item_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_version_id" integer NOT NULL,
	"risk_type_id" integer NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"presence" text DEFAULT 'optional' NOT NULL,
	"type" text DEFAULT 'coverage' NOT NULL,
	"fully_earned" boolean DEFAULT false NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"premium_calculation" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "risk_item_presence_check" CHECK ("lines"."risk_item"."presence" in ('required', 'default', 'optional')),
	CONSTRAINT "risk_item_type_check" CHECK ("lines"."risk_item"."type" in ('coverage', 'endorsement', 'fee', 'tax', 'surcharge', 'discount'))
);
--> statement-breakpoint
CREATE TABLE "lines"."risk_type" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."risk_type_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_version_id" integer NOT NULL,
	"parent_risk_type_id" integer,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"premium_calculation" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lines"."scenario" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."scenario_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"product_version_id" integer NOT NULL,
	"name" text NOT NULL,
	"transaction_type" text DEFAULT 'new_business' NOT NULL,
	"effective_date" date NOT NULL,
	"term_start" date,
	"term_end" date,
	"expected_premium" numeric,
	"expected_worksheet" jsonb,
	"last_rating" jsonb,
	"last_rated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scenario_transaction_type_check" CHECK ("lines"."scenario"."transaction_type" in ('new_business', 'renewal', 'endorsement', 'cancellation', 'reinstatement', 'rewrite'))
);
--> statement-breakpoint
CREATE TABLE "lines"."scenario_risk" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."scenario_risk_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"scenario_id" integer NOT NULL,
	"parent_risk_id" integer,
	"risk_type" text NOT NULL,
	"risk_state" jsonb NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lines"."sequence" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lines"."sequence_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_version_id" integer NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"prefix" text DEFAULT '' NOT NULL,
	"suffix" text DEFAULT '' NOT NULL,
	"padding" integer DEFAULT 0 NOT NULL,
	"start" integer DEFAULT 1 NOT NULL,
	"increment" integer DEFAULT 1 NOT NULL,
	"next_value" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lines"."calculation" ADD CONSTRAINT "calculation_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."calculation" ADD CONSTRAINT "calculation_risk_type_id_risk_type_id_fk" FOREIGN KEY ("risk_type_id") REFERENCES "lines"."risk_type"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."calculation" ADD CONSTRAINT "calculation_risk_item_id_risk_item_id_fk" FOREIGN KEY ("risk_item_id") REFERENCES "lines"."risk_item"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."item_limit" ADD CONSTRAINT "item_limit_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."item_limit" ADD CONSTRAINT "item_limit_risk_item_id_risk_item_id_fk" FOREIGN KEY ("risk_item_id") REFERENCES "lines"."risk_item"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product" ADD CONSTRAINT "product_line_id_line_id_fk" FOREIGN KEY ("line_id") REFERENCES "lines"."line"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product" ADD CONSTRAINT "product_parent_product_id_product_id_fk" FOREIGN KEY ("parent_product_id") REFERENCES "lines"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_export" ADD CONSTRAINT "product_export_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "lines"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_export" ADD CONSTRAINT "product_export_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_import" ADD CONSTRAINT "product_import_line_id_line_id_fk" FOREIGN KEY ("line_id") REFERENCES "lines"."line"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_import" ADD CONSTRAINT "product_import_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "lines"."product"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_import" ADD CONSTRAINT "product_import_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_mapping" ADD CONSTRAINT "product_mapping_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "lines"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_mapping" ADD CONSTRAINT "product_mapping_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_version" ADD CONSTRAINT "product_version_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "lines"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_version" ADD CONSTRAINT "product_version_parent_version_id_product_version_id_fk" FOREIGN KEY ("parent_version_id") REFERENCES "lines"."product_version"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."product_version" ADD CONSTRAINT "product_version_copied_from_version_id_product_version_id_fk" FOREIGN KEY ("copied_from_version_id") REFERENCES "lines"."product_version"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."rate_table" ADD CONSTRAINT "rate_table_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."rate_table" ADD CONSTRAINT "rate_table_risk_type_id_risk_type_id_fk" FOREIGN KEY ("risk_type_id") REFERENCES "lines"."risk_type"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."rate_table_row" ADD CONSTRAINT "rate_table_row_rate_table_id_rate_table_id_fk" FOREIGN KEY ("rate_table_id") REFERENCES "lines"."rate_table"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."risk_field" ADD CONSTRAINT "risk_field_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."risk_field" ADD CONSTRAINT "risk_field_risk_type_id_risk_type_id_fk" FOREIGN KEY ("risk_type_id") REFERENCES "lines"."risk_type"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."risk_field" ADD CONSTRAINT "risk_field_format_id_field_format_id_fk" FOREIGN KEY ("format_id") REFERENCES "lines"."field_format"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."risk_item" ADD CONSTRAINT "risk_item_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."risk_item" ADD CONSTRAINT "risk_item_risk_type_id_risk_type_id_fk" FOREIGN KEY ("risk_type_id") REFERENCES "lines"."risk_type"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."risk_type" ADD CONSTRAINT "risk_type_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."risk_type" ADD CONSTRAINT "risk_type_parent_risk_type_id_risk_type_id_fk" FOREIGN KEY ("parent_risk_type_id") REFERENCES "lines"."risk_type"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."scenario" ADD CONSTRAINT "scenario_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "lines"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."scenario" ADD CONSTRAINT "scenario_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."scenario_risk" ADD CONSTRAINT "scenario_risk_scenario_id_scenario_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "lines"."scenario"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."scenario_risk" ADD CONSTRAINT "scenario_risk_parent_risk_id_scenario_risk_id_fk" FOREIGN KEY ("parent_risk_id") REFERENCES "lines"."scenario_risk"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines"."sequence" ADD CONSTRAINT "sequence_product_version_id_product_version_id_fk" FOREIGN KEY ("product_version_id") REFERENCES "lines"."product_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calculation_name_key" ON "lines"."calculation" USING btree ("product_version_id","risk_type_id",lower("name")) WHERE "lines"."calculation"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "calculation_risk_type_idx" ON "lines"."calculation" USING btree ("risk_type_id","order");--> statement-breakpoint
CREATE INDEX "calculation_item_idx" ON "lines"."calculation" USING btree ("risk_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "field_format_name_key" ON "lines"."field_format" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "item_limit_name_key" ON "lines"."item_limit" USING btree ("product_version_id","risk_item_id","kind",lower("name")) WHERE "lines"."item_limit"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "item_limit_item_idx" ON "lines"."item_limit" USING btree ("risk_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "line_name_key" ON "lines"."line" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_name_key" ON "lines"."product" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "product_line_idx" ON "lines"."product" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "product_parent_idx" ON "lines"."product" USING btree ("parent_product_id");--> statement-breakpoint
CREATE INDEX "product_export_product_idx" ON "lines"."product_export" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_mapping_version_key" ON "lines"."product_mapping" USING btree ("product_version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_version_number_key" ON "lines"."product_version" USING btree ("product_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "product_version_one_draft_key" ON "lines"."product_version" USING btree ("product_id") WHERE "lines"."product_version"."status" = 'draft';--> statement-breakpoint
CREATE INDEX "product_version_parent_idx" ON "lines"."product_version" USING btree ("parent_version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rate_table_name_key" ON "lines"."rate_table" USING btree ("product_version_id",lower("name")) WHERE "lines"."rate_table"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "rate_table_risk_type_idx" ON "lines"."rate_table" USING btree ("risk_type_id");--> statement-breakpoint
CREATE INDEX "rate_table_row_table_idx" ON "lines"."rate_table_row" USING btree ("rate_table_id","row_order");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_field_name_key" ON "lines"."risk_field" USING btree ("product_version_id","risk_type_id",lower("name")) WHERE "lines"."risk_field"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "risk_field_risk_type_idx" ON "lines"."risk_field" USING btree ("risk_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_item_name_key" ON "lines"."risk_item" USING btree ("product_version_id","risk_type_id",lower("name")) WHERE "lines"."risk_item"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "risk_item_risk_type_idx" ON "lines"."risk_item" USING btree ("risk_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_type_version_name_key" ON "lines"."risk_type" USING btree ("product_version_id",lower("name"));--> statement-breakpoint
CREATE INDEX "risk_type_parent_idx" ON "lines"."risk_type" USING btree ("parent_risk_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scenario_name_key" ON "lines"."scenario" USING btree ("product_version_id",lower("name"));--> statement-breakpoint
CREATE INDEX "scenario_risk_scenario_idx" ON "lines"."scenario_risk" USING btree ("scenario_id");--> statement-breakpoint
CREATE INDEX "scenario_risk_parent_idx" ON "lines"."scenario_risk" USING btree ("parent_risk_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sequence_name_key" ON "lines"."sequence" USING btree ("product_version_id",lower("name"));