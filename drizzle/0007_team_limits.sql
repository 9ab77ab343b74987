-- Per-team limit overrides, request counters shared by API replicas, and an index over work in flight.
CREATE TABLE "rate_limit_windows" (
	"bucket" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_limits" (
	"team_id" uuid PRIMARY KEY NOT NULL,
	"requests_per_minute" integer,
	"key_requests_per_minute" integer,
	"pages_in_flight" integer
);
--> statement-breakpoint
ALTER TABLE "team_limits" ADD CONSTRAINT "team_limits_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_in_flight_idx" ON "jobs" USING btree ("team_id","kind") WHERE "jobs"."status" = 'scraping';