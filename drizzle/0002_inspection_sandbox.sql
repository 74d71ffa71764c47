ALTER TABLE "inspections" ADD COLUMN "sandbox" jsonb;
