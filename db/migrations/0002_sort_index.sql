-- Tier tables sort by name by default: an index on the exact ORDER BY expression lets a
-- page of 50 out of 100,000 rows be read in order instead of sorting the whole tier.
CREATE INDEX `memories_tier_sortname` ON `memories` (`tier`, coalesce(`name`, `filename`) COLLATE NOCASE);
--> statement-breakpoint
-- Bodies live in the memories rows, so a full-table aggregate would read every body.
-- This covering index holds every column the overview counts: it is scanned instead.
CREATE INDEX `memories_overview` ON `memories` (`tier`, `validate_exit`, `secret_exit`, `injection_exit`, `needs_backfill`, `conflict`, `created_ms`, `last_verified_ms`, `quarantine_since_ms`);
--> statement-breakpoint
CREATE INDEX `memories_tier_qsince` ON `memories` (`tier`, `quarantine_since_ms`);
