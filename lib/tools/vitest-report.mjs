// Reading Vitest's JSON report for `npm test` (lib/tools/test-all.mjs): which test files the
// report holds no test results for. Vitest can drop a file's results when its own
// stack-trace mapping fails (docs/tooling.md, "Test files with no results"): that run still
// exits 0 and its total is short by that file's tests, so a failing test there would go unseen.

/**
 * The files of `expected` (absolute paths, as `vitest list --filesOnly --json` gives them)
 * for which `report` (Vitest's JSON reporter output) has no test results: the file is
 * missing, or its entry holds no test at all. A file whose tests ran keeps its results,
 * failed ones included: only a file with nothing to count is returned.
 */
export function filesWithoutResults(expected, report) {
  const counted = new Set(
    (report.testResults ?? []).filter((r) => (r.assertionResults ?? []).length > 0).map((r) => r.name),
  );
  return expected.filter((file) => !counted.has(file));
}

/** Passed and failed tests of a report, as the closing line counts them. */
export function countsOf(report) {
  return { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0 };
}
