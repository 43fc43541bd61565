/** The pure trust domain (seed 000 v1.0.0 + CONTRACT §3–4). Takes `now`; never touches disk. */
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
