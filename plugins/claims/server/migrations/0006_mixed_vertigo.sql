DROP INDEX "claims"."location_city_idx";--> statement-breakpoint
DROP INDEX "claims"."location_state_zip_idx";--> statement-breakpoint
CREATE INDEX "location_city_lower_idx" ON "claims"."location" USING btree (lower("city"));--> statement-breakpoint
CREATE INDEX "location_state_upper_idx" ON "claims"."location" USING btree (upper("state"));--> statement-breakpoint
CREATE INDEX "location_zip_idx" ON "claims"."location" USING btree ("zip");