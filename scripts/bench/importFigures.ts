// Importing tau2-bench's domains (../shared/tau2/<domain>) and checking the result.
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

const DOMAINS = ['retail', 'telecom', 'mock'] as const;

/**
 * Per domain, `import_tau2_<domain>_ms` (reading the files, parsing, slicing, writing the
 * project's text and making each task's end state from its gold run) and `check_ms_tau2_<domain>`.
 */
export function importFigures(): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const domain of DOMAINS) {
    const folder = `../shared/tau2/${domain}`;
    if (!existsSync(folder)) {
      console.error(
        `importFigures: ${folder} is absent; import_tau2_${domain}_ms is not measured.`,
      );
      continue;
    }
    const imports: number[] = [];
    const checks: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const found = domainFiles('tau2', folder, undefined);
      if ('error' in found) throw new Error(found.error);
      const { files } = projectOfDomain(readTau2Domain(found.name, found.files));
      imports.push(performance.now() - start);
      const project = projectFromFiles(domain, files).project;
      const checked = performance.now();
      analyzeProject(project);
      checks.push(performance.now() - checked);
    }
    figures[`import_tau2_${domain}_ms`] = round(median(imports));
    figures[`check_ms_tau2_${domain}`] = round(median(checks));
  }
  return figures;
}
