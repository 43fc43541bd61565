import path from 'node:path';
// @ts-expect-error: plain ESM helper shared with `npm start`
import { buildIfNeeded } from '../lib/server/build-if-needed.mjs';

export default function globalSetup(): void {
  buildIfNeeded(path.resolve(__dirname, '..'));
}
