CREATE TABLE `audit_cursors` (
	`file` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`offset` integer NOT NULL,
	`size` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `audit_events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`source` text NOT NULL,
	`at` text NOT NULL,
	`at_ms` integer NOT NULL,
	`machine` text NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`memory` text NOT NULL,
	`from_tier` text,
	`to_tier` text,
	`reason` text,
	`findings` text NOT NULL,
	`before_sha256` text,
	`after_sha256` text,
	`recovered` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_op` ON `audit_events` (`source`,`id`);--> statement-breakpoint
CREATE INDEX `audit_memory` ON `audit_events` (`source`,`memory`);--> statement-breakpoint
CREATE INDEX `audit_at` ON `audit_events` (`at_ms`);--> statement-breakpoint
CREATE TABLE `findings` (
	`key` text NOT NULL,
	`check` text NOT NULL,
	`code` text NOT NULL,
	`label` text NOT NULL,
	`line` integer,
	`message` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `findings_key` ON `findings` (`key`);--> statement-breakpoint
CREATE INDEX `findings_check` ON `findings` (`check`);--> statement-breakpoint
CREATE TABLE `memories` (
	`key` text PRIMARY KEY NOT NULL,
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
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `memories_tier` ON `memories` (`tier`,`name`);--> statement-breakpoint
CREATE INDEX `memories_id` ON `memories` (`id`);--> statement-breakpoint
CREATE INDEX `memories_source` ON `memories` (`source`);--> statement-breakpoint
CREATE INDEX `memories_tier_created` ON `memories` (`tier`,`created_ms`);--> statement-breakpoint
CREATE INDEX `memories_tier_verified` ON `memories` (`tier`,`last_verified_ms`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sources` (
	`id` text PRIMARY KEY NOT NULL,
	`root` text NOT NULL,
	`kind` text NOT NULL,
	`label` text NOT NULL,
	`scanned_at` integer,
	`error` text
);
