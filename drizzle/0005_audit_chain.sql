CREATE TABLE "audit_heads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"length" bigint NOT NULL,
	"signed_at" text NOT NULL,
	"reason" text NOT NULL,
	"key_id" text NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "actor_kind" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_prev_hash_unique" UNIQUE("prev_hash");--> statement-breakpoint
-- Rows written before this migration name their actor by a word: "owner" was the owner token,
-- "schedule" the drift watch. The append-only trigger is off only for this one statement.
ALTER TABLE "events" DISABLE TRIGGER "events_no_rewrite";--> statement-breakpoint
UPDATE "events" SET "actor_kind" = CASE "actor" WHEN 'owner' THEN 'owner_token' WHEN 'schedule' THEN 'schedule' ELSE 'unknown' END;--> statement-breakpoint
ALTER TABLE "events" ENABLE TRIGGER "events_no_rewrite";--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "actor_kind" SET NOT NULL;--> statement-breakpoint
-- Every row written from now on carries its link and hash; the rows above are sealed into the
-- chain once, in seq order, by the store as it opens (lib/store/audit.ts sealLegacyEvents),
-- which is the only UPDATE the trigger lets through: setting the hash of a row that has none,
-- with every other column unchanged.
ALTER TABLE "events" ADD CONSTRAINT "events_hash_required" CHECK ("hash" IS NOT NULL AND "prev_hash" IS NOT NULL) NOT VALID;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		IF OLD.hash IS NULL AND NEW.hash IS NOT NULL AND NEW.prev_hash IS NOT NULL
			AND (NEW.seq, NEW.id, NEW.kind, NEW.review_id, NEW.server_id, NEW.actor_kind, NEW.actor, NEW.summary, NEW.detail, NEW.created_at)
				IS NOT DISTINCT FROM
				(OLD.seq, OLD.id, OLD.kind, OLD.review_id, OLD.server_id, OLD.actor_kind, OLD.actor, OLD.summary, OLD.detail, OLD.created_at) THEN
			RETURN NEW;
		END IF;
	END IF;
	RAISE EXCEPTION 'the events log is append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE FUNCTION "audit_heads_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the signed audit heads are append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_heads_no_rewrite" BEFORE UPDATE OR DELETE ON "audit_heads" FOR EACH ROW EXECUTE FUNCTION "audit_heads_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_heads_no_truncate" BEFORE TRUNCATE ON "audit_heads" FOR EACH STATEMENT EXECUTE FUNCTION "audit_heads_append_only"();
