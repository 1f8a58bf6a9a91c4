CREATE TABLE "rules"."package_tag" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rules"."package_tag_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"package_id" integer NOT NULL,
	"name" text NOT NULL,
	"effective_date_id" integer NOT NULL,
	"hash" text NOT NULL,
	"components" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rules"."package_dependency" ADD COLUMN "tag_id" integer;--> statement-breakpoint
ALTER TABLE "rules"."package_tag" ADD CONSTRAINT "package_tag_package_id_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "rules"."package"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."package_tag" ADD CONSTRAINT "package_tag_effective_date_id_effective_date_id_fk" FOREIGN KEY ("effective_date_id") REFERENCES "rules"."effective_date"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "package_tag_name_unique" ON "rules"."package_tag" USING btree ("package_id","name");--> statement-breakpoint
ALTER TABLE "rules"."package_dependency" ADD CONSTRAINT "package_dependency_tag_id_package_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "rules"."package_tag"("id") ON DELETE no action ON UPDATE no action;