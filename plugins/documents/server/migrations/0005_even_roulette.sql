CREATE TABLE "documents"."event_cursor" (
	"name" text PRIMARY KEY NOT NULL,
	"last_outbox_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
