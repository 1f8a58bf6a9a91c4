ALTER TABLE "quote"."quote" ADD COLUMN "previous_premium_term" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "quote"."quote" ADD COLUMN "previous_worksheet" jsonb;--> statement-breakpoint
ALTER TABLE "quote"."quote" ADD COLUMN "previous_rated_at" timestamp with time zone;