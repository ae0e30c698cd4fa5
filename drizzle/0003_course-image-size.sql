-- Trigram indexes serve the administrators' substring searches (pg_trgm is a trusted extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "enrolments_status_idx";--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "image_width" integer;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "image_height" integer;--> statement-breakpoint
ALTER TABLE "enrolments" ADD COLUMN "requested_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "enrolments" SET "requested_at" = "created_at";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("users"."first_name" || ' ' || "users"."last_name" || ' ' || "users"."email")) STORED;--> statement-breakpoint
CREATE INDEX "enrolments_status_requested_idx" ON "enrolments" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ("search_text" gin_trgm_ops);