import { join } from 'node:path';
import { apiReport, createApiProgram, packageEntries, workspacePackages } from './apiReport.js';

/** The file, beside each package's package.json, that holds its checked-in API report. */
export const API_REPORT_FILE = 'api-report.txt';

/** The current API report of every workspace package, keyed by the report's path. */
export function currentApiReports(root: string): Map<string, string> {
  const packages = workspacePackages(root).map((dir) => ({ dir, entries: packageEntries(dir) }));
  const program = createApiProgram(
    root,
    packages.flatMap((pkg) => pkg.entries.map((entry) => entry.file)),
  );
  const reports = new Map<string, string>();
  for (const pkg of packages) {
    if (pkg.entries.length === 0) continue;
    const text = pkg.entries.map((entry) => apiReport(program, entry, root)).join('\n');
    reports.set(join(pkg.dir, API_REPORT_FILE), text);
  }
  return reports;
}
