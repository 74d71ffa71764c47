CREATE TABLE "decision_records" (
	"id" text PRIMARY KEY NOT NULL,
	"review_id" text NOT NULL,
	"decision_id" text NOT NULL,
	"record" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inspections" (
	"id" text PRIMARY KEY NOT NULL,
	"review_id" text NOT NULL,
	"server_id" text NOT NULL,
	"snapshot_sha256" text,
	"surface_sha256" text,
	"declared_capabilities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"inspected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text NOT NULL,
	"error" jsonb
);
--> statement-breakpoint
CREATE TABLE "review_revisions" (
	"review_id" text NOT NULL,
	"revision" integer NOT NULL,
	"schema_version" integer NOT NULL,
	"document" jsonb NOT NULL,
	"author" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_revisions_review_id_revision_pk" PRIMARY KEY("review_id","revision")
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"current_revision" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_links" (
	"id" text PRIMARY KEY NOT NULL,
	"review_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"frozen_revision" integer,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	CONSTRAINT "share_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "surface_snapshots" (
	"sha256" text PRIMARY KEY NOT NULL,
	"document" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "decision_records" ADD CONSTRAINT "decision_records_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspections" ADD CONSTRAINT "inspections_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspections" ADD CONSTRAINT "inspections_snapshot_sha256_surface_snapshots_sha256_fk" FOREIGN KEY ("snapshot_sha256") REFERENCES "public"."surface_snapshots"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_revisions" ADD CONSTRAINT "review_revisions_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "decision_records_review_idx" ON "decision_records" USING btree ("review_id","decision_id");--> statement-breakpoint
CREATE INDEX "inspections_review_server_idx" ON "inspections" USING btree ("review_id","server_id","inspected_at");--> statement-breakpoint
CREATE INDEX "share_links_review_idx" ON "share_links" USING btree ("review_id");