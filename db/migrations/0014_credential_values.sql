-- Salted hashes of the credential values each file holds (docs/credentials.md, "Value propagation"):
-- own = 1, a value a detector found in that file; own = 0, an occurrence of a value known from
-- another file. Never a value. The set file in the data directory is made from the own = 1 rows.
CREATE TABLE IF NOT EXISTS `credential_values` (
	`key` text NOT NULL,
	`source` text NOT NULL,
	`hash` text NOT NULL,
	`len` integer NOT NULL,
	`quick` integer NOT NULL,
	`own` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `credential_values_key` ON `credential_values` (`key`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `credential_values_hash` ON `credential_values` (`hash`);
