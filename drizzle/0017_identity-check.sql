CREATE TYPE "public"."identity_state" AS ENUM('unverified', 'awaiting_check', 'verified', 'returned');--> statement-breakpoint
CREATE TABLE "profile_identity_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"state" "identity_state" NOT NULL,
	"name" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"indos_no" text NOT NULL,
	"passport_number" text NOT NULL,
	"passport_expiry_date" date NOT NULL,
	"cdc_number" text NOT NULL,
	"profile_picture_file" text NOT NULL,
	"id_document_file" text NOT NULL,
	"checked_by" uuid,
	"checked_by_name" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_identity_versions_version_positive" CHECK ("profile_identity_versions"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "certificate_versions" ADD COLUMN "holder_verified_by_name" text;--> statement-breakpoint
ALTER TABLE "certificate_versions" ADD COLUMN "holder_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "holder_verified_by_name" text;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "holder_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "identity_state" "identity_state" DEFAULT 'unverified' NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "identity_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "identity_checked_by" uuid;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "identity_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "identity_return_reason" text;--> statement-breakpoint
ALTER TABLE "profile_identity_versions" ADD CONSTRAINT "profile_identity_versions_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_identity_versions" ADD CONSTRAINT "profile_identity_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_identity_versions" ADD CONSTRAINT "profile_identity_versions_checked_by_users_id_fk" FOREIGN KEY ("checked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profile_identity_versions_profile_idx" ON "profile_identity_versions" USING btree ("profile_id","created_at");--> statement-breakpoint
CREATE INDEX "profile_identity_versions_user_idx" ON "profile_identity_versions" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_identity_checked_by_users_id_fk" FOREIGN KEY ("identity_checked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profiles_indos_key_idx" ON "profiles" USING btree (regexp_replace(upper("indos_no"), '[^A-Z0-9]', '', 'g'));--> statement-breakpoint
CREATE INDEX "profiles_passport_key_idx" ON "profiles" USING btree (regexp_replace(upper("passport_number"), '[^A-Z0-9]', '', 'g'));--> statement-breakpoint
CREATE INDEX "profiles_identity_state_idx" ON "profiles" USING btree ("identity_state","updated_at");--> statement-breakpoint
-- Profiles already kept are complete (every identity column is required), so each starts
-- "awaiting check": none was ever checked by a member of staff. New profiles are created awaiting check too.
UPDATE "profiles" SET "identity_state" = 'awaiting_check';
