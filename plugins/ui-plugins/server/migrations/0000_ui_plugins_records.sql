CREATE SCHEMA "ui_plugins";
--> statement-breakpoint
CREATE TABLE "ui_plugins"."plugin" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slots" jsonb NOT NULL,
	"base_url" text,
	"content" text,
	"configuration" jsonb NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ui_plugins"."plugin_file" (
	"plugin_id" uuid NOT NULL,
	"path" text NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugin_file_plugin_id_path_pk" PRIMARY KEY("plugin_id","path")
);
--> statement-breakpoint
ALTER TABLE "ui_plugins"."plugin_file" ADD CONSTRAINT "plugin_file_plugin_id_plugin_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "ui_plugins"."plugin"("id") ON DELETE cascade ON UPDATE no action;
