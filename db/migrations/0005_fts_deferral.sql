-- Full-text triggers pause while a large first scan runs (meta key 'fts_deferred');
-- the scan rebuilds the FTS index once at the end and removes the key in the same transaction.
DROP TRIGGER `memories_fts_ai`;
--> statement-breakpoint
DROP TRIGGER `memories_fts_ad`;
--> statement-breakpoint
DROP TRIGGER `memories_fts_au`;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_ai` AFTER INSERT ON `memories` WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts(rowid, name, description, body) VALUES (new.rowid, new.name, new.description, new.body);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_ad` AFTER DELETE ON `memories` WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, name, description, body) VALUES ('delete', old.rowid, old.name, old.description, old.body);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_au` AFTER UPDATE ON `memories` WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, name, description, body) VALUES ('delete', old.rowid, old.name, old.description, old.body);
  INSERT INTO memories_fts(rowid, name, description, body) VALUES (new.rowid, new.name, new.description, new.body);
END;
