CREATE SCHEMA "claims";
--> statement-breakpoint
CREATE TABLE "claims"."attachment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."attachment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"folder_id" integer NOT NULL,
	"name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"uploaded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."attachment_folder" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."attachment_folder_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"parent_id" integer,
	"reference_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"username" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"claim_id" integer,
	"from_status" text,
	"to_status" text,
	"reason" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "claims"."claim" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."claim_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"number" text NOT NULL,
	"custom_number" text,
	"fnol_number" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"state" text,
	"product_id" integer NOT NULL,
	"date_of_loss" timestamp with time zone,
	"date_of_loss_timezone" text,
	"loss_description" text DEFAULT '' NOT NULL,
	"loss_location_id" integer,
	"loss_category_id" integer,
	"reported_method_id" integer,
	"reported_date" timestamp with time zone,
	"reported_by" jsonb,
	"policy_id" integer,
	"policy_number" text,
	"policy_revision_id" integer,
	"policy_type" text,
	"current_fnol_step" text,
	"refresh_policy_date" timestamp with time zone,
	"update_latest_revision" boolean DEFAULT false NOT NULL,
	"exposures_folder_id" integer,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status_change_reason" text,
	"primary_adjuster" text,
	"primary_insured_party_id" integer,
	"created_by" text NOT NULL,
	"submitted_by" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."claim_assignment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."claim_assignment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"role_id" integer NOT NULL,
	"claim_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."claim_event" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."claim_event_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"event_type" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."claim_peril" (
	"claim_id" integer NOT NULL,
	"peril_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."claim_tag" (
	"claim_id" integer NOT NULL,
	"tag_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."claim_user" (
	"username" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."contact" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."contact_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text DEFAULT 'person' NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"gender_id" integer,
	"ssn" text,
	"dob" date,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."contact_note" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."contact_note_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_id" integer NOT NULL,
	"text" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."contact_relation" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."contact_relation_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_id" integer NOT NULL,
	"related_contact_id" integer NOT NULL,
	"relation" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."coverage" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."coverage_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"coverage_type_id" integer,
	"name" text NOT NULL,
	"limit_amount" numeric(14, 2),
	"deductible_amount" numeric(14, 2)
);
--> statement-breakpoint
CREATE TABLE "claims"."damage" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."damage_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"risk_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"estimated_amount" numeric(14, 2)
);
--> statement-breakpoint
CREATE TABLE "claims"."exposure" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."exposure_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"number" integer NOT NULL,
	"exposure_name" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"folder_id" integer,
	"is_injury" boolean DEFAULT false NOT NULL,
	"expired" boolean DEFAULT false NOT NULL,
	"party_id" integer,
	"coverage_id" integer,
	"risk_id" integer,
	"adjuster" text,
	"adjuster_start_date" date,
	"deductible_applied_status" text,
	"deductible_override_amount" numeric(14, 2),
	"deductible_override_reason" text,
	"full_deductible_applied" boolean DEFAULT false NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"status_change_reason" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."exposure_assignment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."exposure_assignment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"role_id" integer NOT NULL,
	"exposure_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."exposure_tag" (
	"exposure_id" integer NOT NULL,
	"tag_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."fault" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."fault_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"party_id" integer,
	"fault_type_id" integer,
	"percentage_liable" numeric(5, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "fault_percentage_check" CHECK ("claims"."fault"."percentage_liable" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "claims"."injury" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."injury_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"party_id" integer,
	"injury_nature_id" integer,
	"body_part_id" integer,
	"treatment" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"settlement_from" numeric(14, 2),
	"settlement_to" numeric(14, 2)
);
--> statement-breakpoint
CREATE TABLE "claims"."location" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."location_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"line1" text DEFAULT '' NOT NULL,
	"line2" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"county" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'US' NOT NULL,
	"latitude" numeric(9, 6),
	"longitude" numeric(9, 6)
);
--> statement-breakpoint
CREATE TABLE "claims"."lookup" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."lookup_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"product_id" integer,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"code" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"from_status" text,
	"to_status" text,
	"parent_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expired" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."mock_policy" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."mock_policy_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_number" text NOT NULL,
	"insured_name" text NOT NULL,
	"product_id" integer,
	"date_added" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."number_sequence" (
	"name" text PRIMARY KEY NOT NULL,
	"next_value" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."on_site_service" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."on_site_service_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"service_type_id" integer,
	"vendor_name" text DEFAULT '' NOT NULL,
	"scheduled_at" timestamp with time zone,
	"notes" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."party" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."party_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"display_number" integer NOT NULL,
	"contact_id" integer,
	"name" text NOT NULL,
	"role" text DEFAULT 'claimant' NOT NULL,
	"party_type_id" integer,
	"address_id" integer,
	"phone" text,
	"email" text,
	"refused_to_provide_dob" boolean DEFAULT false NOT NULL,
	"refused_to_provide_ssn" boolean DEFAULT false NOT NULL,
	"refused_to_provide_gender" boolean DEFAULT false NOT NULL,
	"is_involved" boolean DEFAULT true NOT NULL,
	"is_approved_vendor" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."party_relation" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."party_relation_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"party_id" integer NOT NULL,
	"related_party_id" integer NOT NULL,
	"role" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."policy_revision" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."policy_revision_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"policy_id" integer NOT NULL,
	"number" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"policy_type_id" integer,
	"policy_status_id" integer,
	"effective_date" date NOT NULL,
	"expiration_date" date NOT NULL,
	"primary_insured_contact" jsonb,
	"named_insured_contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"additional_insured_contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"agency_contact" jsonb,
	"agent_contact" jsonb,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"date_added" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."policy_status" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."policy_status_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"label" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."policy_type" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."policy_type_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"label" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."product" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."product_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"label" text NOT NULL,
	"policy_type_name" text DEFAULT '' NOT NULL,
	"is_line" boolean DEFAULT false NOT NULL,
	"effective_from" date,
	"effective_to" date,
	"configurations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"claim_type" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"injury_type" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."risk" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."risk_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"risk_type_id" integer,
	"name" text NOT NULL,
	"sub_name" text DEFAULT '' NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expired" boolean DEFAULT false NOT NULL,
	"is_first_party_risk" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims"."risk_type" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims"."risk_type_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"risk_type_group_id" integer,
	"attributes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"damage_type" text
);
--> statement-breakpoint
CREATE TABLE "claims"."zip_code" (
	"zip" text PRIMARY KEY NOT NULL,
	"city" text NOT NULL,
	"county" text DEFAULT '' NOT NULL,
	"state" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claims"."attachment" ADD CONSTRAINT "attachment_folder_id_attachment_folder_id_fk" FOREIGN KEY ("folder_id") REFERENCES "claims"."attachment_folder"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD CONSTRAINT "claim_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "claims"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD CONSTRAINT "claim_loss_location_id_location_id_fk" FOREIGN KEY ("loss_location_id") REFERENCES "claims"."location"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD CONSTRAINT "claim_loss_category_id_lookup_id_fk" FOREIGN KEY ("loss_category_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim" ADD CONSTRAINT "claim_reported_method_id_lookup_id_fk" FOREIGN KEY ("reported_method_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim_assignment" ADD CONSTRAINT "claim_assignment_role_id_lookup_id_fk" FOREIGN KEY ("role_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim_assignment" ADD CONSTRAINT "claim_assignment_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim_event" ADD CONSTRAINT "claim_event_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim_peril" ADD CONSTRAINT "claim_peril_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim_peril" ADD CONSTRAINT "claim_peril_peril_id_lookup_id_fk" FOREIGN KEY ("peril_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim_tag" ADD CONSTRAINT "claim_tag_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."claim_tag" ADD CONSTRAINT "claim_tag_tag_id_lookup_id_fk" FOREIGN KEY ("tag_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."contact" ADD CONSTRAINT "contact_gender_id_lookup_id_fk" FOREIGN KEY ("gender_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."contact_note" ADD CONSTRAINT "contact_note_contact_id_contact_id_fk" FOREIGN KEY ("contact_id") REFERENCES "claims"."contact"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."contact_relation" ADD CONSTRAINT "contact_relation_contact_id_contact_id_fk" FOREIGN KEY ("contact_id") REFERENCES "claims"."contact"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."contact_relation" ADD CONSTRAINT "contact_relation_related_contact_id_contact_id_fk" FOREIGN KEY ("related_contact_id") REFERENCES "claims"."contact"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."coverage" ADD CONSTRAINT "coverage_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."coverage" ADD CONSTRAINT "coverage_coverage_type_id_lookup_id_fk" FOREIGN KEY ("coverage_type_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."damage" ADD CONSTRAINT "damage_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."damage" ADD CONSTRAINT "damage_risk_id_risk_id_fk" FOREIGN KEY ("risk_id") REFERENCES "claims"."risk"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."exposure" ADD CONSTRAINT "exposure_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."exposure" ADD CONSTRAINT "exposure_party_id_party_id_fk" FOREIGN KEY ("party_id") REFERENCES "claims"."party"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."exposure" ADD CONSTRAINT "exposure_coverage_id_coverage_id_fk" FOREIGN KEY ("coverage_id") REFERENCES "claims"."coverage"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."exposure" ADD CONSTRAINT "exposure_risk_id_risk_id_fk" FOREIGN KEY ("risk_id") REFERENCES "claims"."risk"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."exposure_assignment" ADD CONSTRAINT "exposure_assignment_role_id_lookup_id_fk" FOREIGN KEY ("role_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."exposure_assignment" ADD CONSTRAINT "exposure_assignment_exposure_id_exposure_id_fk" FOREIGN KEY ("exposure_id") REFERENCES "claims"."exposure"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."exposure_tag" ADD CONSTRAINT "exposure_tag_exposure_id_exposure_id_fk" FOREIGN KEY ("exposure_id") REFERENCES "claims"."exposure"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."exposure_tag" ADD CONSTRAINT "exposure_tag_tag_id_lookup_id_fk" FOREIGN KEY ("tag_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."fault" ADD CONSTRAINT "fault_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."fault" ADD CONSTRAINT "fault_party_id_party_id_fk" FOREIGN KEY ("party_id") REFERENCES "claims"."party"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."fault" ADD CONSTRAINT "fault_fault_type_id_lookup_id_fk" FOREIGN KEY ("fault_type_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."injury" ADD CONSTRAINT "injury_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."injury" ADD CONSTRAINT "injury_party_id_party_id_fk" FOREIGN KEY ("party_id") REFERENCES "claims"."party"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."injury" ADD CONSTRAINT "injury_injury_nature_id_lookup_id_fk" FOREIGN KEY ("injury_nature_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."injury" ADD CONSTRAINT "injury_body_part_id_lookup_id_fk" FOREIGN KEY ("body_part_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."mock_policy" ADD CONSTRAINT "mock_policy_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "claims"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."on_site_service" ADD CONSTRAINT "on_site_service_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."on_site_service" ADD CONSTRAINT "on_site_service_service_type_id_lookup_id_fk" FOREIGN KEY ("service_type_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."party" ADD CONSTRAINT "party_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."party" ADD CONSTRAINT "party_party_type_id_lookup_id_fk" FOREIGN KEY ("party_type_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."party" ADD CONSTRAINT "party_address_id_location_id_fk" FOREIGN KEY ("address_id") REFERENCES "claims"."location"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."party_relation" ADD CONSTRAINT "party_relation_party_id_party_id_fk" FOREIGN KEY ("party_id") REFERENCES "claims"."party"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."party_relation" ADD CONSTRAINT "party_relation_related_party_id_party_id_fk" FOREIGN KEY ("related_party_id") REFERENCES "claims"."party"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."policy_revision" ADD CONSTRAINT "policy_revision_policy_id_mock_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "claims"."mock_policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."policy_revision" ADD CONSTRAINT "policy_revision_policy_type_id_policy_type_id_fk" FOREIGN KEY ("policy_type_id") REFERENCES "claims"."policy_type"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."policy_revision" ADD CONSTRAINT "policy_revision_policy_status_id_policy_status_id_fk" FOREIGN KEY ("policy_status_id") REFERENCES "claims"."policy_status"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."risk" ADD CONSTRAINT "risk_claim_id_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "claims"."claim"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."risk" ADD CONSTRAINT "risk_risk_type_id_risk_type_id_fk" FOREIGN KEY ("risk_type_id") REFERENCES "claims"."risk_type"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."risk_type" ADD CONSTRAINT "risk_type_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "claims"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims"."risk_type" ADD CONSTRAINT "risk_type_risk_type_group_id_lookup_id_fk" FOREIGN KEY ("risk_type_group_id") REFERENCES "claims"."lookup"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attachment_folder_idx" ON "claims"."attachment" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "attachment_folder_reference_idx" ON "claims"."attachment_folder" USING btree ("reference_id");--> statement-breakpoint
CREATE INDEX "attachment_folder_parent_idx" ON "claims"."attachment_folder" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "audit_log_claim_idx" ON "claims"."audit_log" USING btree ("claim_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "claims"."audit_log" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_number_key" ON "claims"."claim" USING btree ("number");--> statement-breakpoint
CREATE INDEX "claim_status_idx" ON "claims"."claim" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "claim_adjuster_idx" ON "claims"."claim" USING btree ("primary_adjuster");--> statement-breakpoint
CREATE INDEX "claim_loss_location_idx" ON "claims"."claim" USING btree ("loss_location_id");--> statement-breakpoint
CREATE INDEX "claim_policy_number_idx" ON "claims"."claim" USING btree ("policy_number");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_assignment_key" ON "claims"."claim_assignment" USING btree ("claim_id","username","role_id");--> statement-breakpoint
CREATE INDEX "claim_event_claim_idx" ON "claims"."claim_event" USING btree ("claim_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_peril_key" ON "claims"."claim_peril" USING btree ("claim_id","peril_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_tag_key" ON "claims"."claim_tag" USING btree ("claim_id","tag_id");--> statement-breakpoint
CREATE INDEX "contact_name_idx" ON "claims"."contact" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "contact_ssn_idx" ON "claims"."contact" USING btree ("ssn");--> statement-breakpoint
CREATE INDEX "coverage_claim_idx" ON "claims"."coverage" USING btree ("claim_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exposure_claim_number_key" ON "claims"."exposure" USING btree ("claim_id","number");--> statement-breakpoint
CREATE INDEX "exposure_party_idx" ON "claims"."exposure" USING btree ("party_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exposure_assignment_key" ON "claims"."exposure_assignment" USING btree ("exposure_id","username","role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exposure_tag_key" ON "claims"."exposure_tag" USING btree ("exposure_id","tag_id");--> statement-breakpoint
CREATE INDEX "fault_claim_idx" ON "claims"."fault" USING btree ("claim_id");--> statement-breakpoint
CREATE INDEX "location_city_idx" ON "claims"."location" USING btree ("city");--> statement-breakpoint
CREATE INDEX "location_state_zip_idx" ON "claims"."location" USING btree ("state","zip");--> statement-breakpoint
CREATE INDEX "lookup_kind_idx" ON "claims"."lookup" USING btree ("kind","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lookup_kind_product_name_key" ON "claims"."lookup" USING btree ("kind",coalesce("product_id", 0),"name");--> statement-breakpoint
CREATE UNIQUE INDEX "mock_policy_number_key" ON "claims"."mock_policy" USING btree ("policy_number");--> statement-breakpoint
CREATE UNIQUE INDEX "party_claim_display_number_key" ON "claims"."party" USING btree ("claim_id","display_number");--> statement-breakpoint
CREATE INDEX "party_claim_idx" ON "claims"."party" USING btree ("claim_id");--> statement-breakpoint
CREATE INDEX "policy_revision_policy_idx" ON "claims"."policy_revision" USING btree ("policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_status_name_key" ON "claims"."policy_status" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_type_name_key" ON "claims"."policy_type" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "product_name_key" ON "claims"."product" USING btree ("name");--> statement-breakpoint
CREATE INDEX "risk_claim_idx" ON "claims"."risk" USING btree ("claim_id");