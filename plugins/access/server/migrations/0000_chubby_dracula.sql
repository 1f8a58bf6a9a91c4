CREATE SCHEMA "access";
--> statement-breakpoint
CREATE TABLE "access"."revision" (
	"id" integer PRIMARY KEY NOT NULL,
	"value" bigint NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access"."policy" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access"."policy_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"version" text DEFAULT '0.0.0' NOT NULL,
	"type" text DEFAULT 'custom' NOT NULL,
	"statements" jsonb NOT NULL,
	"date_added" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_type_check" CHECK ("access"."policy"."type" in ('system', 'custom'))
);
--> statement-breakpoint
CREATE TABLE "access"."policy_assignment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access"."policy_assignment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access"."role" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access"."role_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"gen2_role" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access"."role_group_name_assignment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access"."role_group_name_assignment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"group_name" text NOT NULL,
	"role_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access"."role_user_name_assignment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access"."role_user_name_assignment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_name" text NOT NULL,
	"role_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "access"."policy_assignment" ADD CONSTRAINT "policy_assignment_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "access"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access"."policy_assignment" ADD CONSTRAINT "policy_assignment_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "access"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access"."role_group_name_assignment" ADD CONSTRAINT "role_group_name_assignment_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "access"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access"."role_user_name_assignment" ADD CONSTRAINT "role_user_name_assignment_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "access"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_name_key" ON "access"."policy" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "policy_assignment_policy_role_key" ON "access"."policy_assignment" USING btree ("policy_id","role_id");--> statement-breakpoint
CREATE INDEX "policy_assignment_role_idx" ON "access"."policy_assignment" USING btree ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "role_name_key" ON "access"."role" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "role_group_name_assignment_group_role_key" ON "access"."role_group_name_assignment" USING btree (lower("group_name"),"role_id");--> statement-breakpoint
CREATE INDEX "role_group_name_assignment_role_idx" ON "access"."role_group_name_assignment" USING btree ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "role_user_name_assignment_user_role_key" ON "access"."role_user_name_assignment" USING btree ("user_name","role_id");--> statement-breakpoint
CREATE INDEX "role_user_name_assignment_role_idx" ON "access"."role_user_name_assignment" USING btree ("role_id");