DROP INDEX "enrolments_course_idx";--> statement-breakpoint
CREATE INDEX "enrolments_status_user_idx" ON "enrolments" USING btree ("status","user_id","requested_at","id");--> statement-breakpoint
CREATE INDEX "enrolments_course_status_idx" ON "enrolments" USING btree ("course_id","status","requested_at","id");