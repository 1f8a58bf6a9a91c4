import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * Prints where a run's time went, after vitest's own summary: seconds per project (summed over its
 * files, so two workers' files add up to more than the wall clock) and the ten slowest files with
 * what each spent importing and in tests and hooks. `npm test` uses it so that a file or a module
 * that makes the suite slower is visible in every CI log (issue 12: the suite stays under 10 min).
 *
 * `SLOWEST_FILES_JSON=<file>` also writes every file's figures as JSON, to compare two runs.
 */
interface FileTiming {
  project: string;
  file: string;
  /** Import, collect and environment set-up plus tests and hooks, in milliseconds. */
  total: number;
  importing: number;
  running: number;
  state: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class SlowestFilesReporter implements Reporter {
  private root = process.cwd();
  private started = 0;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.started = performance.now();
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const files: FileTiming[] = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      const importing =
        diagnostic.environmentSetupDuration +
        diagnostic.prepareDuration +
        diagnostic.setupDuration +
        diagnostic.collectDuration;
      return {
        project: module.project.name || 'default',
        file: relative(this.root, module.moduleId),
        total: importing + diagnostic.duration,
        importing,
        running: diagnostic.duration,
        state: module.state(),
      };
    });
    if (files.length === 0) return;
    const byProject = new Map<string, { total: number; count: number }>();
    for (const file of files) {
      const sum = byProject.get(file.project) ?? { total: 0, count: 0 };
      sum.total += file.total;
      sum.count += 1;
      byProject.set(file.project, sum);
    }
    const lines = ['', `Time per project (sum over files; wall clock ${seconds(performance.now() - this.started)}):`];
    for (const [project, sum] of [...byProject].sort((a, b) => b[1].total - a[1].total))
      lines.push(`  ${project.padEnd(14)} ${seconds(sum.total).padStart(9)}  ${sum.count} files`);
    lines.push('', 'Ten slowest files (total = import + tests and hooks):');
    for (const file of [...files].sort((a, b) => b.total - a.total).slice(0, 10))
      lines.push(
        `  ${seconds(file.total).padStart(8)}  (import ${seconds(file.importing)}, run ${seconds(file.running)})  ` +
          `${file.project}  ${file.file}${file.state === 'failed' ? '  FAILED' : ''}`,
      );
    console.log(lines.join('\n'));
    const out = process.env.SLOWEST_FILES_JSON;
    if (out) {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(out, `${JSON.stringify(files, null, 2)}\n`);
    }
  }
}
