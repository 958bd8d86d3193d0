// Importing tau2-bench's retail domain (../shared/tau2/retail) and checking the result.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  analyzeProject,
  projectFromFiles,
  projectOfDomain,
  readTau2Domain,
} from '../../src/core/index.ts';
import { domainFiles } from '../../src/cli/import.ts';
import { median, round } from './stats.ts';

const RETAIL = '../shared/tau2/retail';

/** `import_tau2_retail_ms` (reading the files, parsing, slicing, writing the project's text) and `check_ms_tau2_retail`. */
export function importFigures(): Record<string, number> {
  if (!existsSync(RETAIL)) {
    console.error(`importFigures: ${RETAIL} is absent; import_tau2_retail_ms is not measured.`);
    return {};
  }
  const imports: number[] = [];
  const checks: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const found = domainFiles('tau2', RETAIL, undefined);
    if ('error' in found) throw new Error(found.error);
    const { files } = projectOfDomain(readTau2Domain(found.name, found.files));
    imports.push(performance.now() - start);
    const project = projectFromFiles('retail', files).project;
    const checked = performance.now();
    analyzeProject(project);
    checks.push(performance.now() - checked);
  }
  return {
    import_tau2_retail_ms: round(median(imports)),
    check_ms_tau2_retail: round(median(checks)),
  };
}
