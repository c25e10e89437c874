// npm run test:unit: every test/unit/*.test.ts in two processes (the machine's two cores) instead of
// one tsx process per file, which spent most of its time starting tsx (about 1.3 s each, 80+ files).
// Each file's tests run inside a suite named after the file, so a file's top-level before/after/
// beforeEach hooks stay with its own tests. Node 20 has no --test-isolation=none (Node 22.8+).
//
//   node --import tsx test/run-unit.ts              all files, SYNCPOD_UNIT_PROCESSES processes (default 2)
//   node --import tsx test/run-unit.ts FILE...      only these files, in this process
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe } from 'node:test';

const DIR = path.join(__dirname, 'unit');

function loadInSuites(files: string[]): void {
  for (const file of files) {
    describe(path.basename(file), () => {
      require(path.resolve(DIR, path.basename(file)));
    });
  }
}

/** Files split into `n` groups of about equal size (bytes of test code as the measure of work). */
function shards(files: string[], n: number): string[][] {
  const groups = Array.from({ length: n }, () => ({ files: [] as string[], bytes: 0 }));
  const sized = files.map((f) => ({ f, bytes: fs.statSync(path.join(DIR, f)).size }));
  // render.test.ts counts as four files. It no longer spawns children, but the grouping without this
  // weight (94 files, 2026-11-27) aborted its process in grpc-client.test.ts's GOAWAY test with V8's
  // "RegExpCompiler Allocation failed - process out of memory" (RSS ~290 MB); each half of that group
  // passed alone. Not understood yet: see the note of the session (notes/commands.md).
  for (const s of sized) if (s.f === 'render.test.ts') s.bytes *= 4;
  for (const s of sized.sort((a, b) => b.bytes - a.bytes)) {
    const g = groups.reduce((min, x) => (x.bytes < min.bytes ? x : min));
    g.files.push(s.f);
    g.bytes += s.bytes;
  }
  return groups.map((g) => g.files.sort());
}

function runShard(files: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, __filename, ...files], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function main(): Promise<void> {
  const given = process.argv.slice(2);
  if (given.length > 0) {
    loadInSuites(given);
    return;
  }
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.test.ts'));
  const n = Math.max(1, Number(process.env.SYNCPOD_UNIT_PROCESSES) || Math.min(2, os.availableParallelism()));
  const results = await Promise.all(shards(files, n).map(runShard));
  const totals = { tests: 0, pass: 0, fail: 0 };
  for (const r of results) {
    process.stdout.write(r.out);
    for (const key of Object.keys(totals) as Array<keyof typeof totals>) {
      const m = new RegExp(`^# ${key} (\\d+)$`, 'm').exec(r.out);
      totals[key] += m ? Number(m[1]) : 0;
    }
  }
  process.stdout.write(
    `# all ${files.length} files in ${n} processes: ${totals.tests} tests, ${totals.pass} pass, ${totals.fail} fail\n`,
  );
  process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
}

void main();
