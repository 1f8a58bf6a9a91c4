CREATE SCHEMA "notes";
--> statement-breakpoint
CREATE TABLE "notes"."note" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notes"."note_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"record_label" text,
	"body" text NOT NULL,
	"author" text NOT NULL,
	"author_name" text NOT NULL,
	"mentions" text[] DEFAULT '{}'::text[] NOT NULL,
	"mention_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "note_record_idx" ON "notes"."note" USING btree ("record_type","record_id","created_at");--> statement-breakpoint
CREATE INDEX "note_author_idx" ON "notes"."note" USING btree ("author","created_at");--> statement-breakpoint
CREATE INDEX "note_mentions_idx" ON "notes"."note" USING gin ("mentions");