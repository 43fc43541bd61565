import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native module and the TS-running CLI stay outside the bundle.
  serverExternalPackages: ['better-sqlite3'],
  poweredByHeader: false,
  reactStrictMode: true,
  // Keep local data (demo root, databases) out of traced output.
  outputFileTracingExcludes: { '*': ['./data/**/*', './bench/.out/**/*', './e2e/**/*'] },
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
