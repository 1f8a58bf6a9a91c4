CREATE TABLE "access"."plugin_grant" (
	"plugin" text NOT NULL,
	"role_name" text NOT NULL,
	"policy_id" integer NOT NULL,
	"grant_version" integer NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugin_grant_plugin_role_name_pk" PRIMARY KEY("plugin","role_name")
);
--> statement-breakpoint
ALTER TABLE "access"."plugin_grant" ADD CONSTRAINT "plugin_grant_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "access"."policy"("id") ON DELETE cascade ON UPDATE no action;