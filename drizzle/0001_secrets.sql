CREATE TABLE "secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"nonce" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "variables" jsonb DEFAULT '[]'::jsonb NOT NULL;