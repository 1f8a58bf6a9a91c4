CREATE TABLE "core"."event_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "core"."event_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" uuid NOT NULL,
	"event_date" timestamp with time zone NOT NULL,
	"schema_id" text NOT NULL,
	"version" text NOT NULL,
	"topic" text NOT NULL,
	"triggering_user" text NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "event_outbox_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE INDEX "event_outbox_topic_idx" ON "core"."event_outbox" USING btree ("topic","id");