-- Every index costs time on each of 100,000 inserts. These two are covered by others:
-- memories_tier_sortname (tier, sort name) and memories_rescan (source, rel_path, size, mtime).
DROP INDEX IF EXISTS `memories_tier`;
--> statement-breakpoint
DROP INDEX IF EXISTS `memories_source`;
