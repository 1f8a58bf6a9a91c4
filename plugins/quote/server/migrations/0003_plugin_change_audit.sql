CREATE TABLE "quote"."audit_entry" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"username" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"risk_type" text,
	"plugin_id" text,
	"plugin_name" text,
	"patch" jsonb,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quote"."audit_entry" ADD CONSTRAINT "audit_entry_quote_id_quote_id_fk" FOREIGN KEY ("quote_id") REFERENCES "quote"."quote"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entry_quote_idx" ON "quote"."audit_entry" USING btree ("quote_id");