/** React Query keys in one place, so invalidation after a mutation hits every view. */
export const queryKeys = {
  index: ['index-signature'] as const,
  /** The same signature, polled by the Context X-ray (which also keeps its plan made ahead). */
  contextIndex: ['index-signature', 'context'] as const,
  review: ['review-queue'] as const,
  recordRoots: ['record-roots-token'] as const,
};
