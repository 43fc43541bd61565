import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native module and the TS-running CLI stay outside the bundle.
  serverExternalPackages: ['better-sqlite3'],
  poweredByHeader: false,
  reactStrictMode: true,
  // Keep local data (demo root, databases) out of traced output.
  outputFileTracingExcludes: { '*': ['./data/**/*', './bench/.out/**/*', './e2e/**/*'] },
  // Type checking is its own step of `npm test` (tsc --noEmit); the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
