-- Record events keep their layout and the layout's own verb in the mirror (docs/records.md,
-- "History and reports"). Cursors are reset so the next scan reads every audit file again and
-- fills both columns for record events mirrored before this migration (events already
-- mirrored are otherwise left as they are).
ALTER TABLE `audit_events` ADD `layout` text;
--> statement-breakpoint
ALTER TABLE `audit_events` ADD `record_action` text;
--> statement-breakpoint
DELETE FROM `audit_cursors`;
