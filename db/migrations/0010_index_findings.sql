-- Findings of the index file (MEMORY.md) a Claude Code folder loads into every session:
-- secret and injection checks line by line (docs/claude-code-folders.md). Masked, like findings.
CREATE TABLE IF NOT EXISTS `index_findings` (
	`source` text NOT NULL,
	`file` text NOT NULL,
	`check` text NOT NULL,
	`code` text NOT NULL,
	`label` text NOT NULL,
	`class` text,
	`line` integer,
	`message` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `index_findings_source` ON `index_findings` (`source`);
