CREATE TABLE "offline_downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"height" integer NOT NULL,
	"record_key" text NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"last_signature" text,
	"last_device_ended_at" timestamp with time zone,
	"credited_play_seconds" real DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offline_part_fetches" (
	"download_id" uuid NOT NULL,
	"video_id" uuid NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offline_part_fetches_download_id_video_id_pk" PRIMARY KEY("download_id","video_id")
);
--> statement-breakpoint
CREATE TABLE "offline_watch_records" (
	"id" uuid PRIMARY KEY NOT NULL,
	"download_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"video_id" uuid NOT NULL,
	"from_seconds" real NOT NULL,
	"to_seconds" real NOT NULL,
	"device_started_at" timestamp with time zone NOT NULL,
	"device_ended_at" timestamp with time zone NOT NULL,
	"played_ms" integer NOT NULL,
	"signature" text NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"credited_seconds" real DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offline_watch_records_seq_positive" CHECK ("offline_watch_records"."seq" >= 1)
);
--> statement-breakpoint
ALTER TABLE "offline_downloads" ADD CONSTRAINT "offline_downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_downloads" ADD CONSTRAINT "offline_downloads_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_part_fetches" ADD CONSTRAINT "offline_part_fetches_download_id_offline_downloads_id_fk" FOREIGN KEY ("download_id") REFERENCES "public"."offline_downloads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_part_fetches" ADD CONSTRAINT "offline_part_fetches_video_id_training_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."training_videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_watch_records" ADD CONSTRAINT "offline_watch_records_download_id_offline_downloads_id_fk" FOREIGN KEY ("download_id") REFERENCES "public"."offline_downloads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_watch_records" ADD CONSTRAINT "offline_watch_records_video_id_training_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."training_videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offline_downloads_user_course_idx" ON "offline_downloads" USING btree ("user_id","course_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offline_watch_records_download_seq_unique" ON "offline_watch_records" USING btree ("download_id","seq");