-- Full-text search over name, description and body (external content: no second copy of bodies).
CREATE VIRTUAL TABLE `memories_fts` USING fts5(name, description, body, content='memories', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `memories_fts_ai` AFTER INSERT ON `memories` BEGIN
  INSERT INTO memories_fts(rowid, name, description, body) VALUES (new.rowid, new.name, new.description, new.body);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_ad` AFTER DELETE ON `memories` BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, name, description, body) VALUES ('delete', old.rowid, old.name, old.description, old.body);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_au` AFTER UPDATE ON `memories` BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, name, description, body) VALUES ('delete', old.rowid, old.name, old.description, old.body);
  INSERT INTO memories_fts(rowid, name, description, body) VALUES (new.rowid, new.name, new.description, new.body);
END;
