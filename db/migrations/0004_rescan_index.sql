-- The no-change rescan reads (rel_path, size, mtime) of every row of a source: covered here.
CREATE INDEX `memories_rescan` ON `memories` (`source`, `rel_path`, `size`, `mtime_ms`);
