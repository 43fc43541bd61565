-- Audit events carry the batch they belong to (docs/audit-trail.md; docs/batches.md).
ALTER TABLE `audit_events` ADD `batch` text;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `audit_batch` ON `audit_events` (`batch`);
