CREATE TABLE "detection_batches" (
	"review_id" text NOT NULL,
	"batch_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "detection_batches_review_id_batch_id_pk" PRIMARY KEY("review_id","batch_id")
);
--> statement-breakpoint
ALTER TABLE "detection_batches" ADD CONSTRAINT "detection_batches_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;