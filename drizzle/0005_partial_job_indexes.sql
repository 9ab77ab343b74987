-- A job's status, claim and scraped-at indexes cover only the rows their queries read, so a lookup
-- by (job, URL) has one index to use. Whole, they could each serve it by scanning every page of the
-- job, and without statistics (a new database) the planner could not tell them apart.
DROP INDEX "pages_job_status_idx";--> statement-breakpoint
DROP INDEX "pages_job_claim_idx";--> statement-breakpoint
DROP INDEX "pages_job_scraped_idx";--> statement-breakpoint
CREATE INDEX "pages_job_status_idx" ON "pages" USING btree ("job_id","status","depth","id") WHERE "pages"."status" in ('queued', 'scraping');--> statement-breakpoint
CREATE INDEX "pages_job_claim_idx" ON "pages" USING btree ("job_id","claim_id") WHERE "pages"."claim_id" is not null;--> statement-breakpoint
CREATE INDEX "pages_job_scraped_idx" ON "pages" USING btree ("job_id","scraped_at") WHERE "pages"."status" = 'scraped';