/**
 * The inline mask token's shape (docs/credentials.md, "3. Nothing unmasked"): `⟦credential #2 · 9 chars⟧`.
 * Its own module, without the detectors, so that client components can render masks without
 * shipping the validators to the browser (mask-inline.ts makes the tokens).
 */
export const MASK_PATTERN = /⟦(credential|personal) #(\d{1,5}) · (\d{1,7}) chars⟧/g;
