CREATE TABLE "watch_refusals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"video_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"claimed_from" real NOT NULL,
	"claimed_to" real NOT NULL,
	"credited_seconds" real DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "verification_code" text;--> statement-breakpoint
UPDATE "certificates" SET "verification_code" = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '') WHERE "verification_code" IS NULL;--> statement-breakpoint
ALTER TABLE "certificates" ALTER COLUMN "verification_code" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "test_attempts" ADD COLUMN "questions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "questions_per_attempt" integer;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "attempts_allowed" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "wait_minutes" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "enrolments" ADD COLUMN "extra_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "watch_progress" ADD COLUMN "observed_seconds" real DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "watch_progress" SET "observed_seconds" = "watched_seconds";--> statement-breakpoint
ALTER TABLE "watch_progress" ADD COLUMN "first_beat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "watch_refusals" ADD CONSTRAINT "watch_refusals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_refusals" ADD CONSTRAINT "watch_refusals_video_id_training_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."training_videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watch_refusals_user_video_idx" ON "watch_refusals" USING btree ("user_id","video_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_verification_code_unique" ON "certificates" USING btree ("verification_code");--> statement-breakpoint
ALTER TABLE "tests" ADD CONSTRAINT "tests_questions_per_attempt_positive" CHECK ("tests"."questions_per_attempt" is null or "tests"."questions_per_attempt" >= 1);--> statement-breakpoint
ALTER TABLE "tests" ADD CONSTRAINT "tests_attempts_allowed_positive" CHECK ("tests"."attempts_allowed" >= 1);--> statement-breakpoint
ALTER TABLE "tests" ADD CONSTRAINT "tests_wait_minutes_range" CHECK ("tests"."wait_minutes" >= 0);