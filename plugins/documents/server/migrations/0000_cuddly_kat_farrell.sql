CREATE SCHEMA "documents";
--> statement-breakpoint
CREATE TABLE "documents"."folder" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents"."folder_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"parent_id" integer
);
--> statement-breakpoint
CREATE TABLE "documents"."production_document" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents"."production_document_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"template_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"document_date" date NOT NULL,
	"data" jsonb NOT NULL,
	"renderer_version" text NOT NULL,
	"sha256" text NOT NULL,
	"page_count" integer NOT NULL,
	"pdf_base64" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents"."template" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents"."template_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"subject" text NOT NULL,
	"folder_id" integer NOT NULL,
	CONSTRAINT "template_folder_name_uq" UNIQUE("folder_id","name")
);
--> statement-breakpoint
CREATE TABLE "documents"."version" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents"."version_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"template_id" integer NOT NULL,
	"number" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"effective_date" date NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"source" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" text,
	"published_at" timestamp with time zone,
	CONSTRAINT "version_template_number_uq" UNIQUE("template_id","number")
);
--> statement-breakpoint
ALTER TABLE "documents"."folder" ADD CONSTRAINT "folder_parent_id_folder_id_fk" FOREIGN KEY ("parent_id") REFERENCES "documents"."folder"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD CONSTRAINT "production_document_template_id_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "documents"."template"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents"."production_document" ADD CONSTRAINT "production_document_version_id_version_id_fk" FOREIGN KEY ("version_id") REFERENCES "documents"."version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents"."template" ADD CONSTRAINT "template_folder_id_folder_id_fk" FOREIGN KEY ("folder_id") REFERENCES "documents"."folder"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents"."version" ADD CONSTRAINT "version_template_id_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "documents"."template"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "folder_parent_idx" ON "documents"."folder" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "production_document_template_idx" ON "documents"."production_document" USING btree ("template_id");