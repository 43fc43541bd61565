-- The audit page's machine menu and the type-filtered charts (issue 5).
CREATE INDEX `audit_machine` ON `audit_events` (`machine`);
--> statement-breakpoint
CREATE INDEX `memories_type_tier` ON `memories` (`type`, `tier`, `last_verified_ms`, `created_ms`, `quarantine_since_ms`);
