CREATE TYPE "public"."staff_role" AS ENUM('owner', 'registrar', 'instructor', 'auditor');--> statement-breakpoint
CREATE TABLE "academy_settings" (
	"id" text PRIMARY KEY DEFAULT 'academy' NOT NULL,
	"staff_second_factor_required" boolean DEFAULT true NOT NULL,
	"retention_years" integer DEFAULT 10 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "academy_settings_one_row" CHECK ("academy_settings"."id" = 'academy'),
	CONSTRAINT "academy_settings_retention_range" CHECK ("academy_settings"."retention_years" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "audit_entries" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"actor_role" text,
	"address" text,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text,
	"learner_id" uuid,
	"before" jsonb,
	"after" jsonb,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_entries_hash_hex" CHECK ("audit_entries"."hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "second_factor" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "staff_role" "staff_role";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "audit_entries_at_idx" ON "audit_entries" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_entries_actor_idx" ON "audit_entries" USING btree ("actor_id","at");--> statement-breakpoint
CREATE INDEX "audit_entries_learner_idx" ON "audit_entries" USING btree ("learner_id","at");--> statement-breakpoint
CREATE INDEX "audit_entries_action_idx" ON "audit_entries" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "audit_entries_subject_idx" ON "audit_entries" USING btree ("subject_type","subject_id");--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_second_factor_known" CHECK ("refresh_tokens"."second_factor" in ('passed', 'waived'));--> statement-breakpoint
-- The spec's single administrator, and every administrator so far, becomes an owner (decision 067).
UPDATE "users" SET "staff_role" = 'owner' WHERE "role" = 'admin';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_staff_role_for_staff" CHECK (("users"."role" = 'admin') = ("users"."staff_role" is not null));--> statement-breakpoint
INSERT INTO "academy_settings" ("id") VALUES ('academy') ON CONFLICT DO NOTHING;--> statement-breakpoint
-- The audit trail is append-only: no statement changes or removes an entry.
CREATE FUNCTION "audit_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_entries_append_only" BEFORE UPDATE OR DELETE ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION "audit_entries_append_only"();
