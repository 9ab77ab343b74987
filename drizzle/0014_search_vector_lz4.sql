-- A page's search vector (about 11 KB on a crawled page) barely compresses: pglz tried and gave
-- up on every vector the search indexer wrote, about a quarter of a millisecond of Postgres a
-- page on the crawl bench; lz4 gives up several times sooner. Builds without lz4 keep pglz.
DO $$
BEGIN
  ALTER TABLE "pages" ALTER COLUMN "search_vector" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available; search vectors stay pglz-compressed';
END $$;
