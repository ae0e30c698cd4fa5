CREATE TABLE "certificate_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"certificate_id" uuid NOT NULL,
	"days_before" integer NOT NULL,
	"valid_until" date NOT NULL,
	"mail_id" uuid,
	"run_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_reminders_days_positive" CHECK ("certificate_reminders"."days_before" >= 1)
);
--> statement-breakpoint
CREATE TABLE "certificate_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"certificate_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"verification_code" text NOT NULL,
	"pdf_file" text,
	"holder_name" text NOT NULL,
	"holder_date_of_birth" date,
	"holder_indos_no" text,
	"holder_passport_number" text,
	"holder_cdc_number" text,
	"made_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replaced_by" uuid
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "holder_name" text;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "holder_date_of_birth" date;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "holder_indos_no" text;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "holder_passport_number" text;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "holder_cdc_number" text;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "course_code" text;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "approval_number" text;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "valid_until" date;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "reissued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "superseded_by_id" uuid;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "renews_id" uuid;--> statement-breakpoint
-- Certificates issued before: the name they were printed with (the account's), the profile's documents.
UPDATE "certificates" AS c SET "holder_name" = btrim(u."first_name" || ' ' || u."last_name") FROM "users" AS u WHERE u."id" = c."user_id";--> statement-breakpoint
UPDATE "certificates" AS c SET "holder_date_of_birth" = p."date_of_birth", "holder_indos_no" = nullif(btrim(p."indos_no"), ''), "holder_passport_number" = nullif(btrim(p."passport_number"), ''), "holder_cdc_number" = nullif(btrim(p."cdc_number"), '') FROM "profiles" AS p WHERE p."user_id" = c."user_id";--> statement-breakpoint
ALTER TABLE "certificates" ALTER COLUMN "holder_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "approval_number" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "certificate_validity_months" integer;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "refresher_course_id" uuid;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "test_requires_approved_profile" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "certificate_reminders" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "certificate_reminders" ADD CONSTRAINT "certificate_reminders_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_reminders" ADD CONSTRAINT "certificate_reminders_mail_id_mails_id_fk" FOREIGN KEY ("mail_id") REFERENCES "public"."mails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_reminders" ADD CONSTRAINT "certificate_reminders_run_by_users_id_fk" FOREIGN KEY ("run_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_versions" ADD CONSTRAINT "certificate_versions_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_versions" ADD CONSTRAINT "certificate_versions_replaced_by_users_id_fk" FOREIGN KEY ("replaced_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_reminders_stage_unique" ON "certificate_reminders" USING btree ("certificate_id","days_before");--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_versions_certificate_version_unique" ON "certificate_versions" USING btree ("certificate_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_versions_code_unique" ON "certificate_versions" USING btree ("verification_code");--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_versions_pdf_file_unique" ON "certificate_versions" USING btree ("pdf_file");--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_superseded_by_id_certificates_id_fk" FOREIGN KEY ("superseded_by_id") REFERENCES "public"."certificates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_renews_id_certificates_id_fk" FOREIGN KEY ("renews_id") REFERENCES "public"."certificates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_refresher_course_id_courses_id_fk" FOREIGN KEY ("refresher_course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificates_live_valid_until_idx" ON "certificates" USING btree ("valid_until","id") WHERE "certificates"."revoked_at" is null and "certificates"."superseded_at" is null and "certificates"."valid_until" is not null;--> statement-breakpoint
CREATE INDEX "certificates_course_issued_idx" ON "certificates" USING btree ("course_id","created_at","id");--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_version_positive" CHECK ("certificates"."version" >= 1);--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_validity_range" CHECK ("courses"."certificate_validity_months" is null or "courses"."certificate_validity_months" between 1 and 120);--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_refresher_not_self" CHECK ("courses"."refresher_course_id" is null or "courses"."refresher_course_id" <> "courses"."id");