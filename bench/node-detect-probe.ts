// Run by bench/node-profile.ts inside a stand-in kubelet's PID namespace: times kubelet detection
// in-process (scan /proc, read the command line, config file and drop-ins, kubelet --version from
// the cache or by running it) and prints the medians as JSON on stdout.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { detectKubelet, detectKubeletVersion } from '../src/node/detect';

const ROUNDS = Number(process.env.BENCH_DETECT_ROUNDS ?? 41);
const parseYaml = (t: string) => parse(t, { version: '1.1' });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
function time(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-detect-cache-'));
const cold: number[] = [];
const warm: number[] = [];
let found = false;
detectKubeletVersion(detectKubelet({ parseYaml, cacheDir }), { cacheDir }); // warm-up: modules, yaml, code caches
for (let i = 0; i < Math.max(5, ROUNDS >> 3); i++) {
  fs.rmSync(path.join(cacheDir, 'kubelet-versions.json'), { force: true });
  cold.push(
    time(
      () =>
        (found =
          detectKubeletVersion(detectKubelet({ parseYaml, cacheDir }), { cacheDir }).kubelet?.version !== undefined),
    ),
  );
}
for (let i = 0; i < ROUNDS; i++)
  warm.push(time(() => detectKubeletVersion(detectKubelet({ parseYaml, cacheDir }), { cacheDir })));
fs.rmSync(cacheDir, { recursive: true, force: true });
process.stdout.write(
  JSON.stringify({
    found,
    coldMs: median(cold),
    warmMs: median(warm),
    warmMin: Math.min(...warm),
    warmMax: Math.max(...warm),
    procEntries: fs.readdirSync('/proc').length,
  }) + '\n',
);
