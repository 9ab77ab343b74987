-- The crawl graph keeps one row per linking page, its targets in an array, instead of one row
-- per link: a page's dozens of menu and footer links cost one row, one index entry and one
-- foreign-key check. Existing graphs are carried over.
ALTER TABLE "edges" RENAME TO "edges_per_link";--> statement-breakpoint
ALTER TABLE "edges_per_link" DROP CONSTRAINT "edges_job_id_jobs_id_fk";--> statement-breakpoint
CREATE TABLE "edges" (
	"job_id" uuid NOT NULL,
	"from_key" text NOT NULL,
	"to_keys" text[] NOT NULL,
	CONSTRAINT "edges_job_id_from_key_pk" PRIMARY KEY("job_id","from_key")
);--> statement-breakpoint
ALTER TABLE "edges" ADD CONSTRAINT "edges_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "edges" ("job_id", "from_key", "to_keys")
  SELECT "job_id", "from_key", array_agg("to_key" ORDER BY "to_key") FROM "edges_per_link" GROUP BY "job_id", "from_key";--> statement-breakpoint
DROP TABLE "edges_per_link";
