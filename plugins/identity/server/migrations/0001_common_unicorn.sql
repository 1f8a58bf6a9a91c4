CREATE TABLE "identity"."oidc_authorization" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"state_hash" text NOT NULL,
	"provider_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"user_id" uuid,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "identity"."oidc_provider" ADD COLUMN "link_by_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "identity"."oidc_authorization" ADD CONSTRAINT "oidc_authorization_provider_id_oidc_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "identity"."oidc_provider"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."oidc_authorization" ADD CONSTRAINT "oidc_authorization_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "identity"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oidc_authorization_state_key" ON "identity"."oidc_authorization" USING btree ("state_hash");