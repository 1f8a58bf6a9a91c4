CREATE SCHEMA "rules";
--> statement-breakpoint
CREATE TABLE "rules"."commit" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rules"."commit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"effective_date_id" integer NOT NULL,
	"hash" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"snapshot" jsonb NOT NULL,
	"diff" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules"."component" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rules"."component_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"package_id" integer NOT NULL,
	"name" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"folder" text DEFAULT '' NOT NULL,
	"component_type" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules"."component_version" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rules"."component_version_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"component_id" integer NOT NULL,
	"effective_date_id" integer NOT NULL,
	"body" text NOT NULL,
	"tree" jsonb,
	"state" text DEFAULT 'enabled' NOT NULL,
	"committed_hash" text,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules"."deployment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rules"."deployment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"effective_date_id" integer NOT NULL,
	"commit_id" integer NOT NULL,
	"bundle" jsonb NOT NULL,
	"hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules"."effective_date" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rules"."effective_date_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"effective_date" date NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules"."job" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" integer,
	"kind" text NOT NULL,
	"status" text DEFAULT 'NEW' NOT NULL,
	"result_status" text,
	"progress" text DEFAULT '0.00' NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules"."package_dependency" (
	"package_id" integer NOT NULL,
	"depends_on_id" integer NOT NULL,
	CONSTRAINT "package_dependency_package_id_depends_on_id_pk" PRIMARY KEY("package_id","depends_on_id")
);
--> statement-breakpoint
CREATE TABLE "rules"."project" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rules"."project_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"label" text NOT NULL,
	"product" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules"."package" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rules"."package_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rules"."commit" ADD CONSTRAINT "commit_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "rules"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."commit" ADD CONSTRAINT "commit_effective_date_id_effective_date_id_fk" FOREIGN KEY ("effective_date_id") REFERENCES "rules"."effective_date"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."component" ADD CONSTRAINT "component_package_id_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "rules"."package"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."component_version" ADD CONSTRAINT "component_version_component_id_component_id_fk" FOREIGN KEY ("component_id") REFERENCES "rules"."component"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."component_version" ADD CONSTRAINT "component_version_effective_date_id_effective_date_id_fk" FOREIGN KEY ("effective_date_id") REFERENCES "rules"."effective_date"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."deployment" ADD CONSTRAINT "deployment_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "rules"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."deployment" ADD CONSTRAINT "deployment_effective_date_id_effective_date_id_fk" FOREIGN KEY ("effective_date_id") REFERENCES "rules"."effective_date"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."deployment" ADD CONSTRAINT "deployment_commit_id_commit_id_fk" FOREIGN KEY ("commit_id") REFERENCES "rules"."commit"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."effective_date" ADD CONSTRAINT "effective_date_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "rules"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."job" ADD CONSTRAINT "job_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "rules"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."package_dependency" ADD CONSTRAINT "package_dependency_package_id_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "rules"."package"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."package_dependency" ADD CONSTRAINT "package_dependency_depends_on_id_package_id_fk" FOREIGN KEY ("depends_on_id") REFERENCES "rules"."package"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules"."package" ADD CONSTRAINT "package_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "rules"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "component_name_unique" ON "rules"."component" USING btree ("package_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "component_version_unique" ON "rules"."component_version" USING btree ("component_id","effective_date_id");--> statement-breakpoint
CREATE INDEX "component_version_date" ON "rules"."component_version" USING btree ("effective_date_id");--> statement-breakpoint
CREATE UNIQUE INDEX "effective_date_unique" ON "rules"."effective_date" USING btree ("project_id","effective_date");--> statement-breakpoint
CREATE INDEX "job_project" ON "rules"."job" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "project_name_unique" ON "rules"."project" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "package_name_unique" ON "rules"."package" USING btree ("project_id","name");