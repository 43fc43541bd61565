/** Environment as read by memtrust (a plain map, so tests can pass their own). */
export type Env = Record<string, string | undefined>;
