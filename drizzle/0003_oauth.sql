CREATE TABLE "oauth_connections" (
	"review_id" text NOT NULL,
	"server_id" text NOT NULL,
	"resource_url" text NOT NULL,
	"key_id" text NOT NULL,
	"client_sealed" text,
	"tokens_sealed" text,
	"discovery" jsonb,
	"issuer" text,
	"subject" text,
	"granted_scope" text,
	"expires_at" timestamp with time zone,
	"connected_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_connections_review_id_server_id_pk" PRIMARY KEY("review_id","server_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_flows" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"review_id" text NOT NULL,
	"server_id" text NOT NULL,
	"resource_url" text NOT NULL,
	"session_hash" text NOT NULL,
	"key_id" text NOT NULL,
	"verifier_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "authorization" jsonb;--> statement-breakpoint
ALTER TABLE "oauth_connections" ADD CONSTRAINT "oauth_connections_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_flows" ADD CONSTRAINT "oauth_flows_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_flows_expires_idx" ON "oauth_flows" USING btree ("expires_at");