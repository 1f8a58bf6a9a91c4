CREATE SCHEMA "integrations";
--> statement-breakpoint
CREATE TABLE "integrations"."attempt" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"attempt_number" integer NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"response_excerpt" text DEFAULT '' NOT NULL,
	"error" text,
	"succeeded" boolean NOT NULL,
	"next_retry_at" timestamp with time zone,
	"trigger" text DEFAULT 'schedule' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."data_mapping" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"from" text NOT NULL,
	"to" text NOT NULL,
	"version" integer NOT NULL,
	"mapping" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "data_mapping_version_uq" UNIQUE("from","to","version")
);
--> statement-breakpoint
CREATE TABLE "integrations"."dispatch_cursor" (
	"id" integer PRIMARY KEY NOT NULL,
	"outbox_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."exception" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"module" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"payload" jsonb NOT NULL,
	"attempts" integer NOT NULL,
	"reference" text,
	"retry_job" text,
	"status" text DEFAULT 'open' NOT NULL,
	"dismiss_reason" text,
	"resolved_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."message" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"topic" text NOT NULL,
	"body" text NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"round_start" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"last_status_code" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_subscription_event_uq" UNIQUE("subscription_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "integrations"."subscription" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"disabled_reason" text,
	"secret_sealed" text NOT NULL,
	"previous_secret_sealed" text,
	"previous_secret_expires_at" timestamp with time zone,
	"start_outbox_id" bigint,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations"."attempt" ADD CONSTRAINT "attempt_message_id_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "integrations"."message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations"."message" ADD CONSTRAINT "message_subscription_id_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "integrations"."subscription"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attempt_message_idx" ON "integrations"."attempt" USING btree ("message_id","attempt_number");--> statement-breakpoint
CREATE INDEX "exception_status_idx" ON "integrations"."exception" USING btree ("status","module","created_at");--> statement-breakpoint
CREATE INDEX "message_due_idx" ON "integrations"."message" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "message_subscription_idx" ON "integrations"."message" USING btree ("subscription_id","created_at");