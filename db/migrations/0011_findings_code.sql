-- The review inbox filters by finding kind and class (a set of codes): look findings up by code.
CREATE INDEX IF NOT EXISTS `findings_code` ON `findings` (`code`,`key`);
--> statement-breakpoint
-- The inbox picks a page of keys from this covering index (every column its filters and sorts
-- read), then loads those rows only: a filter change never scans the wide memories rows.
CREATE INDEX IF NOT EXISTS `memories_inbox` ON `memories` (coalesce(`name`, `filename`) COLLATE NOCASE, `tier`, `created_ms`, `last_verified_ms`, `quarantine_since_ms`, `conflict`, `needs_backfill`, `source`, `type`, `finding_count`, `finding_checks`, `key`);
