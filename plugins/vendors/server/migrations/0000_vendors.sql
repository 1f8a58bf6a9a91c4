CREATE SCHEMA "vendors";
--> statement-breakpoint
CREATE TABLE "vendors"."authorization" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vendor" text NOT NULL,
	"environment" text NOT NULL,
	"state_hash" text NOT NULL,
	"code_verifier_sealed" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"started_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "authorization_state_hash_unique" UNIQUE("state_hash")
);
--> statement-breakpoint
CREATE TABLE "vendors"."connection" (
	"vendor" text PRIMARY KEY NOT NULL,
	"environment" text DEFAULT 'sandbox' NOT NULL,
	"client_id" text,
	"client_secret_sealed" text,
	"access_token_sealed" text,
	"refresh_token_sealed" text,
	"access_expires_at" timestamp with time zone,
	"refresh_expires_at" timestamp with time zone,
	"account_id" text,
	"account_name" text,
	"api_base_uri" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"connected_by" text,
	"connected_at" timestamp with time zone,
	"last_refresh_at" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vendors"."docusign_envelope" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_number" text NOT NULL,
	"document_name" text NOT NULL,
	"signer_name" text NOT NULL,
	"signer_email" text NOT NULL,
	"account_id" text NOT NULL,
	"environment" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"envelope_id" text,
	"last_error" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vendors"."quickbooks_invoice" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" text NOT NULL,
	"policy_number" text NOT NULL,
	"event_id" uuid NOT NULL,
	"realm_id" text NOT NULL,
	"environment" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"customer_name" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"customer_request_id" text NOT NULL,
	"invoice_request_id" text NOT NULL,
	"customer_id" text,
	"invoice_id" text,
	"invoice_doc_number" text,
	"request" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "quickbooks_invoice_policy_id_unique" UNIQUE("policy_id")
);
