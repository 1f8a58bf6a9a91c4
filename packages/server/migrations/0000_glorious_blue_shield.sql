CREATE SCHEMA "core";
--> statement-breakpoint
CREATE TABLE "core"."carrier" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "core"."carrier_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"website" text,
	"logo_url" text,
	"is_primary" boolean DEFAULT false NOT NULL,
	"live_status" boolean DEFAULT false NOT NULL,
	"live_status_description" text DEFAULT '' NOT NULL,
	"claim_prefix" text NOT NULL,
	"policy_prefix" text NOT NULL,
	"enable_analytics" boolean DEFAULT false NOT NULL,
	"track_agents_in_pendo" boolean DEFAULT false NOT NULL,
	"whitelisted_for_pendo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "core"."seed_run" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "core"."seed_run_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"seeded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"plugins" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "core"."setting" (
	"section" text NOT NULL,
	"option" text NOT NULL,
	"value" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "setting_section_option_pk" PRIMARY KEY("section","option")
);
