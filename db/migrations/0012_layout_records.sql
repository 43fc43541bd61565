-- Records of the layouts read through an adapter (canonical, governed, consolidation…),
-- keyed by record id; never stored in `memories` (docs/records.md, "The index").
CREATE TABLE IF NOT EXISTS `layout_records` (
	`id` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`layout` text NOT NULL,
	`key` text NOT NULL,
	`native` text NOT NULL,
	`tier` text NOT NULL,
	`flags` text NOT NULL,
	`title` text NOT NULL,
	`origin` text NOT NULL,
	`created_at` text,
	`verified_at` text,
	`file` text NOT NULL,
	`line` integer NOT NULL,
	`end_line` integer NOT NULL,
	`credential_count` integer NOT NULL,
	`personal_count` integer NOT NULL,
	`injection_count` integer NOT NULL,
	`text` text NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `layout_records_place` ON `layout_records` (`source`,`file`,`line`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `layout_records_key` ON `layout_records` (`key`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `layout_records_layout` ON `layout_records` (`layout`,`tier`);
--> statement-breakpoint
-- The change token each record source was read at: a store is re-read only when it moved.
CREATE TABLE IF NOT EXISTS `layout_sources` (
	`source` text PRIMARY KEY NOT NULL,
	`root` text NOT NULL,
	`layout` text NOT NULL,
	`shape` text NOT NULL,
	`token` text NOT NULL,
	`problems` text NOT NULL,
	`warnings` text NOT NULL,
	`error` text,
	`read_at` text NOT NULL
);
