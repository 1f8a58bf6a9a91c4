CREATE SCHEMA "contacts";
--> statement-breakpoint
CREATE SEQUENCE "contacts"."contact_number" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1001 CACHE 1;--> statement-breakpoint
CREATE TABLE "contacts"."audit_entry" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contacts"."audit_entry_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"username" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts"."contact" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text DEFAULT 'person' NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"phones" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"dob" date,
	"agency_id" text,
	"username" text,
	"ssn_sealed" text,
	"ssn_hash" text,
	"created_by" text DEFAULT 'system' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts"."contact_book" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contacts"."contact_book_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_id" text NOT NULL,
	"agent_contact_id" text,
	"agency_contact_id" text
);
--> statement-breakpoint
CREATE TABLE "contacts"."contact_note" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contacts"."contact_note_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_id" text NOT NULL,
	"text" text NOT NULL,
	"created_by" text DEFAULT 'system' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts"."contact_relation" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contacts"."contact_relation_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_id" text NOT NULL,
	"related_contact_id" text NOT NULL,
	"relation" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts"."quoting_permission" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contacts"."quoting_permission_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_id" text NOT NULL,
	"product" text NOT NULL,
	"state" text NOT NULL,
	"action" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contacts"."contact_book" ADD CONSTRAINT "contact_book_contact_id_contact_id_fk" FOREIGN KEY ("contact_id") REFERENCES "contacts"."contact"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts"."contact_note" ADD CONSTRAINT "contact_note_contact_id_contact_id_fk" FOREIGN KEY ("contact_id") REFERENCES "contacts"."contact"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts"."contact_relation" ADD CONSTRAINT "contact_relation_contact_id_contact_id_fk" FOREIGN KEY ("contact_id") REFERENCES "contacts"."contact"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts"."contact_relation" ADD CONSTRAINT "contact_relation_related_contact_id_contact_id_fk" FOREIGN KEY ("related_contact_id") REFERENCES "contacts"."contact"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts"."quoting_permission" ADD CONSTRAINT "quoting_permission_contact_id_contact_id_fk" FOREIGN KEY ("contact_id") REFERENCES "contacts"."contact"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_name_idx" ON "contacts"."contact" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "contact_ssn_hash_idx" ON "contacts"."contact" USING btree ("ssn_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "contact_username_key" ON "contacts"."contact" USING btree ("username");--> statement-breakpoint
CREATE INDEX "contact_agency_idx" ON "contacts"."contact" USING btree ("agency_id");--> statement-breakpoint
CREATE INDEX "contact_book_contact_idx" ON "contacts"."contact_book" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "contact_book_agent_idx" ON "contacts"."contact_book" USING btree ("agent_contact_id");--> statement-breakpoint
CREATE INDEX "contact_book_agency_idx" ON "contacts"."contact_book" USING btree ("agency_contact_id");--> statement-breakpoint
CREATE INDEX "contact_note_contact_idx" ON "contacts"."contact_note" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "contact_relation_contact_idx" ON "contacts"."contact_relation" USING btree ("contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quoting_permission_key" ON "contacts"."quoting_permission" USING btree ("contact_id","product","state","action");