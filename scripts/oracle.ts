// `npm run oracle -- --minor 1.37 --seed N --count K [-o json] [--cases] [--scenario FILE]`:
// kubelet itself as the judge. Builds the Go oracle of each asked minor (cached), runs kubelet's
// own cases (--cases) and K seeded random scenarios (or the given scenario files) through
// kubelet's code and through syncpod, and reports where they part. Exit 0 when every scenario
// agrees or falls in a documented class, 1 otherwise (2 on bad usage). README "Kubelet oracle".
import { Command } from 'commander';
import { buildOracle, ORACLE_RELEASES } from './oracle-build';
import { loadScenario, type Scenario } from './oracle/scenario';
import { randomScenarios } from './oracle/random';
import { kubeletCases } from './oracle/cases';
import { gateTableDifferences, oracleGates, runScenarios, type Report } from './oracle/run';
import { recordRun } from './oracle/record';

const program = new Command('oracle')
  .option('--minor <minor>', "kubelet minor (1.29–1.37) or 'all'", '1.37')
  .option('--seed <n>', 'seed of the random scenarios', '1')
  .option('--count <k>', 'random scenarios per minor', '200')
  .option('--cases', "also run kubelet's own test cases (scenario data in scripts/oracle/cases.ts)")
  .option('--scenario <file...>', 'run these scenario files only (YAML or JSON; README "Kubelet oracle")')
  .option('-o, --output <format>', 'json or text', 'text')
  .option(
    '--timeout <seconds>',
    'limit for each side of one scenario; a scenario over it disagrees, named on stderr',
    '60',
  )
  .option('--show <n>', 'text output: disagreements shown per minor', '5')
  .option(
    '--record',
    'record each minor\'s counts in src/kubelet/oracle-checked.json (the plans\' "checked against" line; not with --scenario)',
  );

async function run(): Promise<number> {
  program.parse();
  const o = program.opts<{
    minor: string;
    seed: string;
    count: string;
    cases?: boolean;
    scenario?: string[];
    output: string;
    show: string;
    timeout: string;
    record?: boolean;
  }>();
  if (o.record && o.scenario) {
    console.error("oracle: --record counts kubelet's cases and seeded scenarios, not --scenario files");
    return 2;
  }
  const minors = o.minor === 'all' ? Object.keys(ORACLE_RELEASES) : o.minor.split(',');
  for (const m of minors)
    if (!ORACLE_RELEASES[m]) {
      console.error(`oracle: --minor ${m}: no release for it (have ${Object.keys(ORACLE_RELEASES).join(', ')}, all)`);
      return 2;
    }
  const seed = Number(o.seed);
  const count = Number(o.count);
  if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 0) {
    console.error('oracle: --seed and --count must be whole numbers');
    return 2;
  }
  const timeout = Number(o.timeout);
  if (!(timeout > 0)) {
    console.error(`oracle: --timeout ${o.timeout}: a number of seconds above 0`);
    return 2;
  }
  if (o.output !== 'json' && o.output !== 'text') {
    console.error(`oracle: -o ${o.output}: json or text`);
    return 2;
  }
  let files: Scenario[] | undefined;
  try {
    files = o.scenario?.map(loadScenario);
  } catch (e) {
    console.error(`oracle: ${(e as Error).message}`);
    return 2;
  }
  const reports: Report[] = [];
  for (const minor of minors) {
    const bin = buildOracle(minor, (l) => console.error(l));
    const specs = oracleGates(bin);
    const scenarios = files ?? [...(o.cases ? kubeletCases(minor) : []), ...randomScenarios(minor, seed, count, specs)];
    const t0 = Date.now();
    const caseNames = new Set(o.cases ? kubeletCases(minor).map((s) => s.name) : []);
    const report = await runScenarios(
      ORACLE_RELEASES[minor],
      bin,
      scenarios,
      undefined,
      (s) => (caseNames.has(s.name) ? 'cases' : `seed ${seed}`),
      { timeoutMs: timeout * 1000 },
    );
    report.gateTable = gateTableDifferences(minor, specs);
    console.error(
      `oracle ${report.kubelet}: ${report.agree}/${report.scenarios} agree, ${report.known.reduce((n, k) => n + k.count, 0)} in known classes, ${report.disagree.length} disagree (${((Date.now() - t0) / 1000).toFixed(1)} s, median ${report.medianMs} ms per scenario)`,
    );
    reports.push(report);
  }
  const strip = (r: Report) => ({
    kubelet: r.kubelet,
    scenarios: r.scenarios,
    agree: r.agree,
    disagree: r.disagree,
    known: r.known,
    medianMs: r.medianMs,
    gateTable: r.gateTable,
  });
  if (o.output === 'json') {
    const doc = reports.length === 1 ? strip(reports[0]) : { minors: reports.map(strip) };
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  } else {
    for (const r of reports) {
      console.log(`kubelet ${r.kubelet}: ${r.agree} of ${r.scenarios} scenarios agree`);
      for (const g of r.gateTable) console.log(`  GATE TABLE ${g}`);
      for (const k of r.known) console.log(`  known class ${k.class}: ${k.count} (e.g. ${k.example})`);
      for (const d of r.disagree.slice(0, Number(o.show))) {
        console.log(`  DISAGREE ${d.scenario.name}${d.error ? `: ${d.error}` : ''}`);
        console.log(`    kubelet: ${d.kubelet.join(' | ') || '(nothing)'}`);
        console.log(`    syncpod: ${d.syncpod.join(' | ') || '(nothing)'}`);
      }
      if (r.disagree.length > Number(o.show)) console.log(`  … ${r.disagree.length - Number(o.show)} more (-o json)`);
    }
  }
  if (o.record) {
    for (const [i, r] of reports.entries()) {
      const file = recordRun(minors[i], r);
      console.error(`oracle ${r.kubelet}: recorded in ${file}`);
    }
  }
  return reports.every((r) => r.disagree.length === 0 && r.gateTable.length === 0) ? 0 : 1;
}

run().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`oracle: ${(e as Error).message}`);
    process.exit(1);
  },
);
