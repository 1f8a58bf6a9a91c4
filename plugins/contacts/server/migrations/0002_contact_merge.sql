CREATE TABLE "contacts"."contact_merge" (
	"duplicate_id" text PRIMARY KEY NOT NULL,
	"duplicate_number" integer NOT NULL,
	"duplicate_name" text NOT NULL,
	"survivor_id" text NOT NULL,
	"merged_by" text NOT NULL,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contacts"."contact_merge" ADD CONSTRAINT "contact_merge_survivor_id_contact_id_fk" FOREIGN KEY ("survivor_id") REFERENCES "contacts"."contact"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_merge_number_key" ON "contacts"."contact_merge" USING btree ("duplicate_number");--> statement-breakpoint
CREATE INDEX "contact_merge_survivor_idx" ON "contacts"."contact_merge" USING btree ("survivor_id");