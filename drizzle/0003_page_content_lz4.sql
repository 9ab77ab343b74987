-- Page content compresses with lz4 rather than pglz: several times cheaper per stored page, which
-- a crawl pays for every page (measured: about 2.5 ms of Postgres CPU per 40 KB page). Builds
-- without lz4 (some embedded ones) keep pglz.
DO $$
BEGIN
  ALTER TABLE "pages"
    ALTER COLUMN "markdown" SET COMPRESSION lz4,
    ALTER COLUMN "html" SET COMPRESSION lz4,
    ALTER COLUMN "raw_html" SET COMPRESSION lz4,
    ALTER COLUMN "text" SET COMPRESSION lz4,
    ALTER COLUMN "links" SET COMPRESSION lz4,
    ALTER COLUMN "metadata" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available; page content stays pglz-compressed';
END $$;
