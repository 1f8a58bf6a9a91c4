CREATE TABLE "documents"."imported_document" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents"."imported_document_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"subject" text NOT NULL,
	"folder_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"pdf_base64" text NOT NULL,
	"sha256" text NOT NULL,
	"page_count" integer NOT NULL,
	"fields" jsonb NOT NULL,
	"mapping" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" text,
	"published_at" timestamp with time zone,
	CONSTRAINT "imported_document_folder_name_uq" UNIQUE("folder_id","name")
);
--> statement-breakpoint
ALTER TABLE "documents"."imported_document" ADD CONSTRAINT "imported_document_folder_id_folder_id_fk" FOREIGN KEY ("folder_id") REFERENCES "documents"."folder"("id") ON DELETE no action ON UPDATE no action;