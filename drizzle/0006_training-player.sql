ALTER TABLE "enrolments" ADD COLUMN "training_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "training_videos" ADD COLUMN "progress_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "training_videos" ADD COLUMN "poster_file" text;--> statement-breakpoint
ALTER TABLE "watch_progress" ADD COLUMN "last_position" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "watch_progress" ADD COLUMN "last_beat_at" timestamp with time zone;