-- One index table for every layout (docs/records.md, "The index"): `entries` holds a row per
-- memory file of the file layouts (`is_record` 0, keyed `<source>:<relPath>`) and a row per
-- record of the record layouts (`is_record` 1, keyed by the record id `<source>:<key>`).
-- A record fills the memory columns as the lists read them (title in `name`, its own key in
-- `filename`, the masked text in `body`, so full-text search covers it) and keeps its own in
-- the record columns. The file rows are copied over (no rescan needed); record rows are read
-- again from their stores at the next list, their tokens having gone with `layout_sources`.
CREATE TABLE `entries` (
	`key` text PRIMARY KEY NOT NULL,
	`is_record` integer DEFAULT 0 NOT NULL,
	`id` text NOT NULL,
	`source` text NOT NULL,
	`rel_path` text NOT NULL,
	`filename` text NOT NULL,
	`location` text NOT NULL,
	`tier` text NOT NULL,
	`trust_level` text,
	`type` text,
	`name` text,
	`description` text,
	`source_machine` text,
	`created_at` text,
	`last_verified` text,
	`changed_since_verified` text,
	`quarantined_at` text,
	`quarantine_reason` text,
	`created_ms` integer NOT NULL,
	`created_from_mtime` integer NOT NULL,
	`last_verified_ms` integer,
	`quarantine_since_ms` integer,
	`size` integer NOT NULL,
	`mtime_ms` integer NOT NULL,
	`sha256` text NOT NULL,
	`validate_exit` integer NOT NULL,
	`secret_exit` integer NOT NULL,
	`injection_exit` integer NOT NULL,
	`finding_count` integer NOT NULL,
	`finding_checks` text NOT NULL,
	`needs_backfill` integer NOT NULL,
	`conflict` integer DEFAULT false NOT NULL,
	`indexed` integer,
	`error` text,
	`body` text NOT NULL,
	`origin_session` text,
	`origin_reviewed` text,
	`origin` text,
	`origin_reason` text,
	`layout` text,
	`flags` text,
	`record_origin` text,
	`file` text,
	`line` integer,
	`end_line` integer,
	`credential_count` integer,
	`personal_count` integer,
	`injection_count` integer,
	`data` text
);
--> statement-breakpoint
INSERT INTO `entries` (`key`, `id`, `source`, `rel_path`, `filename`, `location`, `tier`, `trust_level`, `type`, `name`, `description`,
	`source_machine`, `created_at`, `last_verified`, `changed_since_verified`, `quarantined_at`, `quarantine_reason`, `created_ms`,
	`created_from_mtime`, `last_verified_ms`, `quarantine_since_ms`, `size`, `mtime_ms`, `sha256`, `validate_exit`, `secret_exit`,
	`injection_exit`, `finding_count`, `finding_checks`, `needs_backfill`, `conflict`, `indexed`, `error`, `body`, `origin_session`,
	`origin_reviewed`, `origin`, `origin_reason`)
SELECT `key`, `id`, `source`, `rel_path`, `filename`, `location`, `tier`, `trust_level`, `type`, `name`, `description`,
	`source_machine`, `created_at`, `last_verified`, `changed_since_verified`, `quarantined_at`, `quarantine_reason`, `created_ms`,
	`created_from_mtime`, `last_verified_ms`, `quarantine_since_ms`, `size`, `mtime_ms`, `sha256`, `validate_exit`, `secret_exit`,
	`injection_exit`, `finding_count`, `finding_checks`, `needs_backfill`, `conflict`, `indexed`, `error`, `body`, `origin_session`,
	`origin_reviewed`, `origin`, `origin_reason`
FROM `memories`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `memories_fts_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `memories_fts_ad`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `memories_fts_au`;
--> statement-breakpoint
DROP TABLE IF EXISTS `memories_fts`;
--> statement-breakpoint
DROP TABLE `memories`;
--> statement-breakpoint
DROP TABLE IF EXISTS `layout_records`;
--> statement-breakpoint
-- Index recipes a bulk load left behind name the old table; every index is made below.
DELETE FROM `meta` WHERE `key` IN ('indexes_deferred', 'fts_deferred');
--> statement-breakpoint
-- The indexes the counts and clocks of the file rows read end with `is_record`: a file-only
-- count (`is_record = 0`) stays covered by the index it used before, and an integer 0 or 1
-- takes no byte beyond its type in an index entry (docs/records.md "The index").
CREATE INDEX `entries_id` ON `entries` (`id`);
--> statement-breakpoint
CREATE INDEX `entries_tier_created` ON `entries` (`tier`, `created_ms`, `is_record`);
--> statement-breakpoint
CREATE INDEX `entries_tier_verified` ON `entries` (`tier`, `last_verified_ms`, `is_record`);
--> statement-breakpoint
CREATE INDEX `entries_tier_qsince` ON `entries` (`tier`, `quarantine_since_ms`, `is_record`);
--> statement-breakpoint
CREATE INDEX `entries_tier_sortname` ON `entries` (`tier`, coalesce(`name`, `filename`) COLLATE NOCASE);
--> statement-breakpoint
CREATE INDEX `entries_type_tier` ON `entries` (`type`, `tier`, `last_verified_ms`, `created_ms`, `quarantine_since_ms`, `is_record`);
--> statement-breakpoint
CREATE INDEX `entries_rescan` ON `entries` (`source`, `rel_path`, `size`, `mtime_ms`);
--> statement-breakpoint
CREATE INDEX `entries_overview` ON `entries` (`tier`, `validate_exit`, `secret_exit`, `injection_exit`, `needs_backfill`, `conflict`, `created_ms`, `last_verified_ms`, `quarantine_since_ms`, `is_record`);
--> statement-breakpoint
CREATE INDEX `entries_inbox` ON `entries` (coalesce(`name`, `filename`) COLLATE NOCASE, `tier`, `created_ms`, `last_verified_ms`, `quarantine_since_ms`, `conflict`, `needs_backfill`, `source`, `type`, `finding_count`, `finding_checks`, `key`, `is_record`);
--> statement-breakpoint
CREATE INDEX `entries_origin` ON `entries` (`origin`, `is_record`);
--> statement-breakpoint
CREATE INDEX `entries_origin_pending` ON `entries` (`source`) WHERE `origin` IS NULL AND `origin_session` IS NOT NULL;
--> statement-breakpoint
-- A record's place in its store (a record root's rows in store order).
CREATE INDEX `entries_place` ON `entries` (`source`, `file`, `line`) WHERE `is_record` = 1;
--> statement-breakpoint
-- A record by its own key (`memtrust show deploy-host`), the handle the store writes.
CREATE INDEX `entries_handle` ON `entries` (`filename`) WHERE `is_record` = 1;
--> statement-breakpoint
CREATE VIRTUAL TABLE `entries_fts` USING fts5(name, description, body, content='entries', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `entries_fts`(`entries_fts`) VALUES ('rebuild');
--> statement-breakpoint
-- Full-text triggers pause while a large first scan runs (meta key 'fts_deferred'; migration 0005).
CREATE TRIGGER `entries_fts_ai` AFTER INSERT ON `entries` WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO entries_fts(rowid, name, description, body) VALUES (new.rowid, new.name, new.description, new.body);
END;
--> statement-breakpoint
CREATE TRIGGER `entries_fts_ad` AFTER DELETE ON `entries` WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, name, description, body) VALUES ('delete', old.rowid, old.name, old.description, old.body);
END;
--> statement-breakpoint
CREATE TRIGGER `entries_fts_au` AFTER UPDATE OF name, description, body ON `entries` WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, name, description, body) VALUES ('delete', old.rowid, old.name, old.description, old.body);
  INSERT INTO entries_fts(rowid, name, description, body) VALUES (new.rowid, new.name, new.description, new.body);
END;
--> statement-breakpoint
-- A record root's read state lives on its `sources` row (kind = its layout): the change token
-- its rows were read at, the read's problems and warnings (JSON), when it was read.
DROP TABLE IF EXISTS `layout_sources`;
--> statement-breakpoint
ALTER TABLE `sources` ADD `shape` text;
--> statement-breakpoint
ALTER TABLE `sources` ADD `token` text;
--> statement-breakpoint
ALTER TABLE `sources` ADD `problems` text;
--> statement-breakpoint
ALTER TABLE `sources` ADD `warnings` text;
--> statement-breakpoint
ALTER TABLE `sources` ADD `read_at` text;
