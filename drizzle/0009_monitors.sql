CREATE TABLE "monitor_check_pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"check_id" uuid NOT NULL,
	"target_id" text NOT NULL,
	"url_key" text NOT NULL,
	"url" text NOT NULL,
	"status" text NOT NULL,
	"job_id" uuid,
	"page_id" uuid,
	"previous_page_id" uuid,
	"status_code" integer,
	"error" text,
	"diff" jsonb,
	"snapshot" jsonb,
	"judgment" jsonb,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_checks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"monitor_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"workflow_id" text NOT NULL,
	"scheduled_for" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"estimated_credits" integer,
	"actual_credits" integer,
	"summary" jsonb,
	"target_results" jsonb,
	"notification_status" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_jobs" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"monitor_id" uuid NOT NULL,
	"check_id" uuid,
	"target_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_snapshots" (
	"monitor_id" uuid NOT NULL,
	"target_id" text NOT NULL,
	"url_key" text NOT NULL,
	"url" text NOT NULL,
	"page_id" uuid,
	"check_id" uuid NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_snapshots_monitor_id_target_id_url_key_pk" PRIMARY KEY("monitor_id","target_id","url_key")
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"cron" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"targets" jsonb NOT NULL,
	"plans" jsonb NOT NULL,
	"webhook" jsonb,
	"notification" jsonb,
	"retention_days" integer NOT NULL,
	"goal" text,
	"judge_enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monitor_check_pages" ADD CONSTRAINT "monitor_check_pages_check_id_monitor_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."monitor_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_checks" ADD CONSTRAINT "monitor_checks_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_jobs" ADD CONSTRAINT "monitor_jobs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_jobs" ADD CONSTRAINT "monitor_jobs_check_id_monitor_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."monitor_checks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_snapshots" ADD CONSTRAINT "monitor_snapshots_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_check_pages_key_idx" ON "monitor_check_pages" USING btree ("check_id","target_id","url_key");--> statement-breakpoint
CREATE INDEX "monitor_check_pages_status_idx" ON "monitor_check_pages" USING btree ("check_id","status");--> statement-breakpoint
CREATE INDEX "monitor_checks_monitor_idx" ON "monitor_checks" USING btree ("monitor_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_checks_running_idx" ON "monitor_checks" USING btree ("monitor_id") WHERE "monitor_checks"."status" = 'running';--> statement-breakpoint
CREATE INDEX "monitor_jobs_monitor_idx" ON "monitor_jobs" USING btree ("monitor_id");--> statement-breakpoint
CREATE INDEX "monitor_jobs_check_idx" ON "monitor_jobs" USING btree ("check_id");--> statement-breakpoint
CREATE INDEX "monitor_snapshots_page_idx" ON "monitor_snapshots" USING btree ("page_id");--> statement-breakpoint
CREATE INDEX "monitors_team_idx" ON "monitors" USING btree ("team_id","created_at");