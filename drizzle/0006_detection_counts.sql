CREATE TABLE "detection_counts" (
	"review_id" text NOT NULL,
	"source" text NOT NULL,
	"agent" text NOT NULL,
	"origin" text NOT NULL,
	"scanned" bigint DEFAULT 0 NOT NULL,
	"flagged" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "detection_counts_review_id_source_agent_origin_pk" PRIMARY KEY("review_id","source","agent","origin")
);
--> statement-breakpoint
CREATE TABLE "reporting_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"review_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reporting_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "detection_counts" ADD CONSTRAINT "detection_counts_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reporting_tokens" ADD CONSTRAINT "reporting_tokens_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reporting_tokens_review_idx" ON "reporting_tokens" USING btree ("review_id");