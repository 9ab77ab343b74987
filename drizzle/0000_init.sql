CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_prefix_unique" UNIQUE("prefix"),
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"credits" bigint DEFAULT 0 NOT NULL,
	"webhook_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teams_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'scraping' NOT NULL,
	"url" text,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"page_limit" integer,
	"discovered" integer DEFAULT 0 NOT NULL,
	"round" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"error_code" text,
	"error" text,
	"idempotency_key" text,
	"request_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"operation" text NOT NULL,
	"job_id" uuid,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid NOT NULL,
	"url_key" text NOT NULL,
	"url" text NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"host" text,
	"claim_id" text,
	"not_before" timestamp with time zone,
	"status" text DEFAULT 'queued' NOT NULL,
	"variant" text,
	"status_code" integer,
	"title" text,
	"description" text,
	"markdown" text,
	"html" text,
	"raw_html" text,
	"text" text,
	"links" jsonb,
	"screenshot" text,
	"json" json,
	"actions" jsonb,
	"warning" text,
	"metadata" jsonb,
	"error_code" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scraped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "crawl_hosts" (
	"job_id" uuid NOT NULL,
	"host" text NOT NULL,
	"delay_ms" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "crawl_hosts_job_id_host_pk" PRIMARY KEY("job_id","host")
);
--> statement-breakpoint
CREATE TABLE "edges" (
	"job_id" uuid NOT NULL,
	"from_key" text NOT NULL,
	"to_key" text NOT NULL,
	CONSTRAINT "edges_job_id_from_key_to_key_pk" PRIMARY KEY("job_id","from_key","to_key")
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" uuid NOT NULL,
	"event_key" text NOT NULL,
	"type" text NOT NULL,
	"page_id" uuid,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"abandoned_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screenshots" (
	"id" text PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"job_id" uuid,
	"storage_key" text NOT NULL,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "extractions" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"schema" json NOT NULL,
	"schema_inferred" boolean DEFAULT false NOT NULL,
	"inference_tokens" integer DEFAULT 0 NOT NULL,
	"data" json,
	"notes" json,
	"sources" json,
	"llm_tokens" integer DEFAULT 0 NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "page_extractions" (
	"page_id" uuid PRIMARY KEY NOT NULL,
	"job_id" uuid NOT NULL,
	"data" json NOT NULL,
	"notes" json NOT NULL,
	"schema" json NOT NULL,
	"llm_tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crawl_hosts" ADD CONSTRAINT "crawl_hosts_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edges" ADD CONSTRAINT "edges_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extractions" ADD CONSTRAINT "extractions_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_extractions" ADD CONSTRAINT "page_extractions_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_extractions" ADD CONSTRAINT "page_extractions_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_team_idx" ON "api_keys" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "jobs_team_created_idx" ON "jobs" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_team_idempotency_idx" ON "jobs" USING btree ("team_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_team_idx" ON "ledger" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "ledger_job_idx" ON "ledger" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pages_job_url_idx" ON "pages" USING btree ("job_id","url_key");--> statement-breakpoint
CREATE INDEX "pages_job_status_idx" ON "pages" USING btree ("job_id","status","depth");--> statement-breakpoint
CREATE INDEX "pages_job_claim_idx" ON "pages" USING btree ("job_id","claim_id");--> statement-breakpoint
CREATE INDEX "pages_job_scraped_idx" ON "pages" USING btree ("job_id","scraped_at");--> statement-breakpoint
CREATE INDEX "pages_cache_idx" ON "pages" USING btree ("url_key","variant","scraped_at");--> statement-breakpoint
CREATE INDEX "webhook_events_pending_idx" ON "webhook_events" USING btree ("job_id","delivered_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_key_idx" ON "webhook_events" USING btree ("job_id","event_key");--> statement-breakpoint
CREATE INDEX "screenshots_expires_idx" ON "screenshots" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "screenshots_job_idx" ON "screenshots" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "page_extractions_job_idx" ON "page_extractions" USING btree ("job_id");