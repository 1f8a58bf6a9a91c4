CREATE SCHEMA "reports";
--> statement-breakpoint
CREATE TABLE "reports"."report_run" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reports"."report_run_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"report" text NOT NULL,
	"filters" jsonb NOT NULL,
	"principal" jsonb NOT NULL,
	"username" text NOT NULL,
	"status" text DEFAULT 'NEW' NOT NULL,
	"progress" numeric(5, 2) DEFAULT '0' NOT NULL,
	"error" text,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "report_run_user_idx" ON "reports"."report_run" USING btree ("username","id");