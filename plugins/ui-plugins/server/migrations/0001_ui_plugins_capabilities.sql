ALTER TABLE "ui_plugins"."plugin" ADD COLUMN "capabilities" jsonb DEFAULT '["read-context","update-risk","create-and-update-risk","toast"]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "ui_plugins"."plugin" ADD COLUMN "configuration_schema" jsonb;
