-- The review inbox filters by finding kind and class (a set of codes): look findings up by code.
CREATE INDEX IF NOT EXISTS `findings_code` ON `findings` (`code`,`key`);
