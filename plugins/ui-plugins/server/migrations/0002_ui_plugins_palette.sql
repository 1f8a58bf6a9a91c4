ALTER TABLE "ui_plugins"."plugin" ADD COLUMN "palette_commands" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "ui_plugins"."plugin" ADD COLUMN "palette_search" boolean DEFAULT false NOT NULL;
