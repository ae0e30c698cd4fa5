DROP INDEX "profiles_indos_idx";--> statement-breakpoint
DROP INDEX "profiles_passport_idx";--> statement-breakpoint
DROP INDEX "profiles_cdc_idx";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "consent_accepted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "profiles_name_prefix_idx" ON "profiles" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "profiles_indos_prefix_idx" ON "profiles" USING btree (lower("indos_no") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "profiles_passport_prefix_idx" ON "profiles" USING btree (lower("passport_number") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "profiles_cdc_prefix_idx" ON "profiles" USING btree (lower("cdc_number") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "profiles_created_idx" ON "profiles" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_email_prefix_idx" ON "users" USING btree ("email" text_pattern_ops);