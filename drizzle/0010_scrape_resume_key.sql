ALTER TABLE "jobs" ADD COLUMN "resume_key" text;--> statement-breakpoint
CREATE INDEX "jobs_team_resume_idx" ON "jobs" USING btree ("team_id","resume_key") WHERE "jobs"."resume_key" is not null;