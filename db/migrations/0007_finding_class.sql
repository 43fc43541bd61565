-- Secret findings carry a class (docs/credentials.md): `credential` (tokens, keys,
-- passwords) or `personal` (private addresses, e-mail, home paths). Other checks: NULL.
ALTER TABLE `findings` ADD `class` text;
--> statement-breakpoint
UPDATE `findings` SET `class` = CASE WHEN `code` IN ('secret.private-ip', 'secret.email', 'secret.home-path') THEN 'personal' ELSE 'credential' END WHERE `check` = 'secret';
