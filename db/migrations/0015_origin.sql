-- The origin of a Claude Code memory in the index (docs/origin.md "In the index"): the
-- session the frontmatter names and `origin-reviewed`, copied from the file at each read;
-- `origin` the lookup's answer, filled after the read from the transcript cache (NULL: not
-- looked up yet; `unknown`; `known` then its flags), `origin_reason` what the turn read.
ALTER TABLE `memories` ADD `origin_session` text;
--> statement-breakpoint
ALTER TABLE `memories` ADD `origin_reviewed` text;
--> statement-breakpoint
ALTER TABLE `memories` ADD `origin` text;
--> statement-breakpoint
ALTER TABLE `memories` ADD `origin_reason` text;
--> statement-breakpoint
-- The rows still to look up, per root: the fill after each scan reads only these.
CREATE INDEX IF NOT EXISTS `memories_origin_pending` ON `memories` (`source`) WHERE `origin` IS NULL AND `origin_session` IS NOT NULL;
--> statement-breakpoint
-- The flag filters and the overview's counts match origin values exactly.
CREATE INDEX IF NOT EXISTS `memories_origin` ON `memories` (`origin`);
--> statement-breakpoint
-- Full-text search indexes name, description and body only: filling the origin columns (or any
-- other column) no longer re-indexes the row.
DROP TRIGGER `memories_fts_au`;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_au` AFTER UPDATE OF name, description, body ON `memories` WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, name, description, body) VALUES ('delete', old.rowid, old.name, old.description, old.body);
  INSERT INTO memories_fts(rowid, name, description, body) VALUES (new.rowid, new.name, new.description, new.body);
END;
