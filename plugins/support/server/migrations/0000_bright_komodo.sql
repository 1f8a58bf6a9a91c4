CREATE SCHEMA "support";
--> statement-breakpoint
CREATE TABLE "support"."ticket" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "support"."ticket_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"description" text NOT NULL,
	"critical" boolean DEFAULT false NOT NULL,
	"url" text,
	"included_emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_by" text NOT NULL,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	"mail_id" integer
);
--> statement-breakpoint
CREATE TABLE "support"."ticket_attachment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "support"."ticket_attachment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ticket_id" integer NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"storage_key" text NOT NULL,
	CONSTRAINT "ticket_attachment_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "support"."ticket_attachment" ADD CONSTRAINT "ticket_attachment_ticket_id_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "support"."ticket"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_status_idx" ON "support"."ticket" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "ticket_created_by_idx" ON "support"."ticket" USING btree ("created_by","created_at");--> statement-breakpoint
CREATE INDEX "ticket_attachment_ticket_idx" ON "support"."ticket_attachment" USING btree ("ticket_id");