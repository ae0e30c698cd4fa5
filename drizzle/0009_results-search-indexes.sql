DROP INDEX "test_attempts_submitted_idx";--> statement-breakpoint
CREATE INDEX "test_attempts_submitted_id_idx" ON "test_attempts" USING btree ("submitted_at","id","user_id","course_id");--> statement-breakpoint
CREATE INDEX "test_attempts_user_submitted_idx" ON "test_attempts" USING btree ("user_id","submitted_at","id");