// `npm run oracle:gates [-- 1.34 1.35 …]`: writes the feature-gate table of each kubelet release,
// as its own code reports it (the built oracle's --gates: default, lock, stage), restricted to the
// gates syncpod consults, to test/fixtures/kubelet-gates/v1.M.P.json. test/unit/features.test.ts
// checks syncpod's table against these files. Builds the oracle of each minor if needed (Go).
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GATE_NAMES } from '../src/kubelet/features';
import { buildOracle, ORACLE_MINORS } from './oracle-build';
import { oracleGates } from './oracle/run';

const ROOT = resolve(__dirname, '..');
const minors = process.argv.slice(2);
for (const minor of minors.length ? minors : Object.keys(ORACLE_MINORS)) {
  const specs = oracleGates(buildOracle(minor, (l) => console.error(l)));
  const out: Record<string, { default: boolean; locked: boolean; preRelease: string }> = {};
  for (const name of [...GATE_NAMES].sort()) if (specs[name]) out[name] = specs[name];
  const file = join(ROOT, 'test', 'fixtures', 'kubelet-gates', `${ORACLE_MINORS[minor].release}.json`);
  writeFileSync(file, `${JSON.stringify({ kubelet: ORACLE_MINORS[minor].release, gates: out }, null, 2)}\n`);
  console.log(file);
}
