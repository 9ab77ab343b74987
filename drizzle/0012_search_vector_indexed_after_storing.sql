-- A page's search vector is no longer computed as its row is written (a generated column): the
-- search indexer fills it after the page is stored (src/search/search-indexer.ts). The vectors
-- already computed stay; the partial index finds the pages still to index.
ALTER TABLE "pages" ALTER COLUMN "search_vector" DROP EXPRESSION;--> statement-breakpoint
CREATE INDEX "pages_unindexed_idx" ON "pages" USING btree ("id") WHERE "pages"."searchable" and "pages"."search_vector" is null;