-- A crawl's limit and admitted-page count move from its job row to a row of their own: page
-- transactions lock and update the count while foreign-key checks of the rows they insert
-- share-lock the job row, and both on one row deadlocked. Existing crawls keep their counts.
CREATE TABLE "crawl_budgets" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"page_limit" integer NOT NULL,
	"admitted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crawl_budgets" ADD CONSTRAINT "crawl_budgets_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "crawl_budgets" ("job_id", "page_limit", "admitted")
  SELECT "id", "page_limit", "discovered" FROM "jobs" WHERE "page_limit" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "page_limit";--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "discovered";