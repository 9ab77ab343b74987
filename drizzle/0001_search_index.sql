CREATE TABLE "search_results" (
	"job_id" uuid NOT NULL,
	"provider_rank" integer NOT NULL,
	"provider" text NOT NULL,
	"url" text NOT NULL,
	"url_key" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"indexed_page_id" uuid,
	"rank" integer,
	"score" real,
	"scraped" boolean DEFAULT false NOT NULL,
	CONSTRAINT "search_results_job_id_provider_rank_pk" PRIMARY KEY("job_id","provider_rank")
);
--> statement-breakpoint
CREATE TABLE "search_synonyms" (
	"id" serial PRIMARY KEY NOT NULL,
	"config" text NOT NULL,
	"words" text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "headings" text;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "searchable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "search_language" text DEFAULT 'english' NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector(CASE search_language WHEN 'arabic' THEN 'arabic'::regconfig WHEN 'catalan' THEN 'catalan'::regconfig WHEN 'danish' THEN 'danish'::regconfig WHEN 'german' THEN 'german'::regconfig WHEN 'greek' THEN 'greek'::regconfig WHEN 'english' THEN 'english'::regconfig WHEN 'spanish' THEN 'spanish'::regconfig WHEN 'basque' THEN 'basque'::regconfig WHEN 'finnish' THEN 'finnish'::regconfig WHEN 'french' THEN 'french'::regconfig WHEN 'irish' THEN 'irish'::regconfig WHEN 'hindi' THEN 'hindi'::regconfig WHEN 'hungarian' THEN 'hungarian'::regconfig WHEN 'armenian' THEN 'armenian'::regconfig WHEN 'indonesian' THEN 'indonesian'::regconfig WHEN 'italian' THEN 'italian'::regconfig WHEN 'lithuanian' THEN 'lithuanian'::regconfig WHEN 'norwegian' THEN 'norwegian'::regconfig WHEN 'nepali' THEN 'nepali'::regconfig WHEN 'dutch' THEN 'dutch'::regconfig WHEN 'portuguese' THEN 'portuguese'::regconfig WHEN 'romanian' THEN 'romanian'::regconfig WHEN 'russian' THEN 'russian'::regconfig WHEN 'serbian' THEN 'serbian'::regconfig WHEN 'swedish' THEN 'swedish'::regconfig WHEN 'tamil' THEN 'tamil'::regconfig WHEN 'turkish' THEN 'turkish'::regconfig WHEN 'yiddish' THEN 'yiddish'::regconfig WHEN 'simple' THEN 'simple'::regconfig ELSE 'english'::regconfig END, coalesce(title, '')), 'A') || setweight(to_tsvector(CASE search_language WHEN 'arabic' THEN 'arabic'::regconfig WHEN 'catalan' THEN 'catalan'::regconfig WHEN 'danish' THEN 'danish'::regconfig WHEN 'german' THEN 'german'::regconfig WHEN 'greek' THEN 'greek'::regconfig WHEN 'english' THEN 'english'::regconfig WHEN 'spanish' THEN 'spanish'::regconfig WHEN 'basque' THEN 'basque'::regconfig WHEN 'finnish' THEN 'finnish'::regconfig WHEN 'french' THEN 'french'::regconfig WHEN 'irish' THEN 'irish'::regconfig WHEN 'hindi' THEN 'hindi'::regconfig WHEN 'hungarian' THEN 'hungarian'::regconfig WHEN 'armenian' THEN 'armenian'::regconfig WHEN 'indonesian' THEN 'indonesian'::regconfig WHEN 'italian' THEN 'italian'::regconfig WHEN 'lithuanian' THEN 'lithuanian'::regconfig WHEN 'norwegian' THEN 'norwegian'::regconfig WHEN 'nepali' THEN 'nepali'::regconfig WHEN 'dutch' THEN 'dutch'::regconfig WHEN 'portuguese' THEN 'portuguese'::regconfig WHEN 'romanian' THEN 'romanian'::regconfig WHEN 'russian' THEN 'russian'::regconfig WHEN 'serbian' THEN 'serbian'::regconfig WHEN 'swedish' THEN 'swedish'::regconfig WHEN 'tamil' THEN 'tamil'::regconfig WHEN 'turkish' THEN 'turkish'::regconfig WHEN 'yiddish' THEN 'yiddish'::regconfig WHEN 'simple' THEN 'simple'::regconfig ELSE 'english'::regconfig END, coalesce(headings, '') || ' ' || coalesce(description, '')), 'B') || setweight(to_tsvector(CASE search_language WHEN 'arabic' THEN 'arabic'::regconfig WHEN 'catalan' THEN 'catalan'::regconfig WHEN 'danish' THEN 'danish'::regconfig WHEN 'german' THEN 'german'::regconfig WHEN 'greek' THEN 'greek'::regconfig WHEN 'english' THEN 'english'::regconfig WHEN 'spanish' THEN 'spanish'::regconfig WHEN 'basque' THEN 'basque'::regconfig WHEN 'finnish' THEN 'finnish'::regconfig WHEN 'french' THEN 'french'::regconfig WHEN 'irish' THEN 'irish'::regconfig WHEN 'hindi' THEN 'hindi'::regconfig WHEN 'hungarian' THEN 'hungarian'::regconfig WHEN 'armenian' THEN 'armenian'::regconfig WHEN 'indonesian' THEN 'indonesian'::regconfig WHEN 'italian' THEN 'italian'::regconfig WHEN 'lithuanian' THEN 'lithuanian'::regconfig WHEN 'norwegian' THEN 'norwegian'::regconfig WHEN 'nepali' THEN 'nepali'::regconfig WHEN 'dutch' THEN 'dutch'::regconfig WHEN 'portuguese' THEN 'portuguese'::regconfig WHEN 'romanian' THEN 'romanian'::regconfig WHEN 'russian' THEN 'russian'::regconfig WHEN 'serbian' THEN 'serbian'::regconfig WHEN 'swedish' THEN 'swedish'::regconfig WHEN 'tamil' THEN 'tamil'::regconfig WHEN 'turkish' THEN 'turkish'::regconfig WHEN 'yiddish' THEN 'yiddish'::regconfig WHEN 'simple' THEN 'simple'::regconfig ELSE 'english'::regconfig END, left(coalesce(text, ''), 100000)), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "search_results" ADD CONSTRAINT "search_results_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_results" ADD CONSTRAINT "search_results_indexed_page_id_pages_id_fk" FOREIGN KEY ("indexed_page_id") REFERENCES "public"."pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_results_job_rank_idx" ON "search_results" USING btree ("job_id","rank");--> statement-breakpoint
CREATE INDEX "search_synonyms_config_idx" ON "search_synonyms" USING btree ("config");--> statement-breakpoint
CREATE INDEX "pages_search_idx" ON "pages" USING gin ("search_vector") WHERE "pages"."searchable";