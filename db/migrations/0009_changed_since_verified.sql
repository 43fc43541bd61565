-- An assistant edit of a verified memory (docs/hooks.md): the frontmatter key
-- changed-since-verified, copied here so the review queue can filter on it.
ALTER TABLE `memories` ADD `changed_since_verified` text;
