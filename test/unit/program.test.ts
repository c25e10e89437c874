// The program defines only the command argv names (program.ts, buildProgram with the run's argv);
// whatever commander does with it must be what the fully defined program does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProgram } from '../../src/cli/program';
import { COMMANDS } from '../../src/cli/command-table';

/** Parses argv and returns what commander wrote and the exit code it chose (no handler runs). */
async function run(
  define: 'all' | 'invoked',
  argv: string[],
): Promise<{ out: string; code: number | undefined; ran: string | undefined }> {
  let out = '';
  let ran: string | undefined;
  const program = buildProgram(
    async (entry) => void (ran = entry.name),
    { writeOut: (s) => void (out += s), writeErr: (s) => void (out += s) },
    define === 'invoked' ? argv : undefined,
  );
  let code: number | undefined;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    code = (err as { exitCode?: number }).exitCode;
  }
  return { out, code, ran };
}

test('each command defined on dispatch prints the same help as the fully defined program', async () => {
  assert.ok(COMMANDS.length >= 30);
  for (const c of COMMANDS) {
    const lazy = await run('invoked', [c.name, '--help']);
    const full = await run('all', [c.name, '--help']);
    assert.equal(lazy.code, 0, c.name);
    assert.match(lazy.out, new RegExp(`^Usage: syncpod ${c.name}\\b`), c.name);
    assert.equal(lazy.out, full.out, `syncpod ${c.name} --help`);
  }
});

test('aliases, flags, arguments and usage errors behave the same with the lazy definition', async () => {
  const cases: string[][] = [
    ['img', '-q'],
    ['image', '--bogus'],
    ['ps', '-a', '--state', 'running', '-o', 'json'],
    ['ps', '--last', 'x'],
    ['inspectp'],
    ['inspectp', 'abc', 'def', '-o', 'yaml'],
    ['logs', '--tail', '5', 'abc'],
    ['bogus'],
    ['--bogus', 'ps'],
    ['-t', '5s', '-r', 'unix:///x.sock', 'pods', '-q'],
    ['exec', '-it', 'abc', '--', 'sh', '-c', 'help'],
    ['--runtime-endpoint=unix:///x.sock', 'ps', '-q'],
    ['-D', '--api', 'v1', 'imag', '-q'],
    ['-Dt', '5s', 'pods'],
    ['--no-color', '--', 'pods'],
    ['-t', '5s'],
    ['pods', '--bogus'],
    ['--version'],
    ['-t', '--version'],
    ['--bogus', '--version'],
    ['help', 'ps'],
    ['--help'],
    [],
  ];
  for (const argv of cases) {
    const lazy = await run('invoked', argv);
    const full = await run('all', argv);
    assert.deepEqual(lazy, full, argv.join(' '));
  }
  assert.equal((await run('invoked', ['img', '-q'])).ran, 'images');
});

test('the invoked command is read off argv only where commander would read the same', async () => {
  const { readRootArgv } = await import('../../src/cli/program');
  const program = buildProgram(async () => undefined);
  const cases: Array<[string[], string | undefined, boolean, boolean]> = [
    [['pods'], 'pods', false, true],
    [['-r', 'unix:///x.sock', '--timeout', '5s', 'ps', '-a'], 'ps', false, true],
    [['--runtime-endpoint=unix:///x.sock', 'img'], 'img', false, true],
    [['-D', '--no-color', '--no-node-profile', 'plan', 'x.yaml'], 'plan', false, true],
    [['--version'], undefined, true, true],
    [['-t', '--version'], undefined, false, true],
    [['-Dr', 'x', 'pods'], undefined, false, false],
    [['-rx', 'pods'], undefined, false, false],
    [['--', 'pods'], undefined, false, false],
    [['--bogus', 'pods'], undefined, false, false],
    [['-t'], undefined, false, true],
  ];
  for (const [argv, command, version, certain] of cases) {
    assert.deepEqual(
      readRootArgv(program, argv),
      { ...(command ? { command } : {}), version, certain },
      argv.join(' '),
    );
  }
});

test('doctor --help lists only the flags doctor reads (not the pod-config flags of plan and sync)', async () => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const src = (p: string) => readFileSync(join(__dirname, '..', '..', 'src', p), 'utf8');
  const doctor = buildProgram(async () => {}).commands.find((c) => c.name() === 'doctor')!;
  const plan = buildProgram(async () => {}).commands.find((c) => c.name() === 'plan')!;
  const flags = (c: typeof doctor) => c.options.map((o) => o.long!);
  for (const planOnly of ['--ordinal', '--env-file', '--runtime-class', '--cgroup-parent', '--runtime-handler']) {
    assert.ok(flags(plan).includes(planOnly), `plan has ${planOnly}`);
    assert.ok(!flags(doctor).includes(planOnly), `doctor lists ${planOnly}`);
  }
  // Each flag doctor lists is read: by doctor's own handler, by the node profile (syncpodNodeFlags) or
  // by the node plan its pods checks use (nodePlanRequest).
  const readers = [
    src('cli/commands/doctor/run.ts'),
    src('workflows/node-profile.ts').slice(
      src('workflows/node-profile.ts').indexOf('export function syncpodNodeFlags'),
    ),
    src('workflows/node-plan.ts').slice(src('workflows/node-plan.ts').indexOf('export function nodePlanRequest')),
  ].join('\n');
  for (const o of doctor.options) {
    const attr = o.attributeName();
    assert.match(readers, new RegExp(`\\b(opts|flags)\\.${attr}\\b`), `doctor ${o.long} is read somewhere`);
  }
});
