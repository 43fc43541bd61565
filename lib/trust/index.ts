/** The pure trust domain (docs/trust-model.md, docs/session-context.md). Takes `now`; never touches disk. */
export * from './tiers';
export * from './dates';
export * from './facts';
export * from './lifecycle';
export * from './reason';
export * from './refusals';
export * from './table';
export * from './transitions';
export * from './allowed';
export * from './backfill';
export * from './context';
export * from './index-limits';
export * from './decision';
export * from './describe';
export * from './assistant-write';
export * from './batch-rules';
export * from './file-record';
