/** React Query keys in one place, so invalidation after a mutation hits every view. */
export const queryKeys = {
  index: ['index-signature'] as const,
  review: ['review-queue'] as const,
  recordRoots: ['record-roots-token'] as const,
};
