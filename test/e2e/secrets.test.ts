// No Secret value in output unless asked: every command of the command table that can carry one
// (it takes --env-file, --creds or --auth) is run, on a real containerd, with --debug, with
// --dry-run where it has it, and through an error, and neither stdout nor stderr may hold the
// value, its JSON-escaped or its base64 form. A new command taking such a flag fails the first test
// until it has its runs here.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { COMMANDS } from '../../src/cli/command-table';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { syncpod, type RunResult } from './helpers';
import { nodeFlags } from './sync-helpers';

const SECRET = 'Sup3r-S3cret-Value-7f1c';
const PULL_PASSWORD = 'Pa55-w0rd-9d2e-registry';
const CARRIERS = ['--env-file', '--secret', '--service-account-token', '--creds', '--auth'];

let lab: Lab;
let dir: string;

/** The commands whose flags can bring a Secret in. */
function carryingCommands(): string[] {
  return COMMANDS.filter((e) => {
    const c = e.define(new Command(e.name) as never) as unknown as Command;
    return c.options.some((o) => CARRIERS.includes(o.long ?? ''));
  }).map((e) => e.name);
}

/** A pod whose container gets the Secret as env, expanded into its command and a subPathExpr. */
function manifest(name: string): string {
  return [
    'apiVersion: v1',
    'kind: Pod',
    `metadata: {name: ${name}, namespace: secrets}`,
    'spec:',
    '  terminationGracePeriodSeconds: 1',
    '  containers:',
    `  - name: app`,
    `    image: ${BUSYBOX_IMAGE}`,
    '    imagePullPolicy: IfNotPresent',
    `    command: [sh, -c, 'echo "$(PASSWORD)" > /dev/null; sleep 600']`,
    '    args: ["--password=$(PASSWORD)"]',
    '    env:',
    '    - {name: PASSWORD, valueFrom: {secretKeyRef: {name: db, key: password}}}',
    '    envFrom: [{secretRef: {name: more}, prefix: MORE_}]',
    "    volumeMounts: [{name: v, mountPath: /v, subPathExpr: '$(PASSWORD)'}]",
    '  volumes: [{name: v, emptyDir: {}}]',
    '',
  ].join('\n');
}

function write(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

/** Every form of `value` that would give it away. */
function forms(value: string): string[] {
  return [value, JSON.stringify(value).slice(1, -1), Buffer.from(value).toString('base64')];
}

function assertNoSecret(what: string, r: RunResult, values: string[]): void {
  for (const v of values)
    for (const f of forms(v))
      for (const [name, text] of [
        ['stdout', r.stdout],
        ['stderr', r.stderr],
      ] as const) {
        const at = text.indexOf(f);
        assert.ok(
          at < 0,
          `${what}: ${name} holds ${JSON.stringify(f)}: …${text.slice(Math.max(0, at - 300), at + 100)}…`,
        );
      }
}

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-secrets-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('every command that can carry a Secret has its runs in this test', () => {
  assert.deepEqual(carryingCommands().sort(), Object.keys(RUNS).sort());
});

type Run = { what: string; argv: string[]; code?: number; values?: string[] };

/** Per command: the runs (argv after the global flags) and the exit code each must give. */
const RUNS: Record<string, () => Promise<Run[]>> = {
  plan: async () => {
    const m = write('plan.yaml', manifest('plan'));
    const e = envFile('plan');
    return [
      { what: 'plan', argv: ['plan', ...nodeFlags(lab), '--env-file', e, m], code: 0 },
      { what: 'plan -o json', argv: ['plan', '-o', 'json', ...nodeFlags(lab), '--env-file', e, m], code: 0 },
      { what: 'plan -o yaml', argv: ['--debug', 'plan', '-o', 'yaml', ...nodeFlags(lab), '--env-file', e, m], code: 0 },
    ];
  },
  sync: async () => {
    const m = write('sync.yaml', manifest('sync'));
    const e = envFile('sync');
    const bad = envFile('sync-bad', `../${SECRET}`);
    return [
      { what: 'sync --dry-run', argv: ['sync', '--dry-run', ...nodeFlags(lab), '--env-file', e, m], code: 0 },
      {
        what: 'sync --dry-run -o json',
        argv: ['--debug', 'sync', '--dry-run', '-o', 'json', ...nodeFlags(lab), '--env-file', e, m],
        code: 0,
      },
      { what: 'sync -y --debug', argv: ['--debug', 'sync', '-y', ...nodeFlags(lab), '--env-file', e, m], code: 0 },
      {
        what: 'sync -y: the container fails on a subPathExpr made from the Secret',
        argv: ['sync', '-y', ...nodeFlags(lab), '--env-file', bad, write('sync-bad.yaml', manifest('sync-bad'))],
        code: 1,
        values: [SECRET, `../${SECRET}`],
      },
      {
        what: 'sync -y --debug: the same error with the stack',
        argv: [
          '--debug',
          'sync',
          '-y',
          ...nodeFlags(lab),
          '--env-file',
          bad,
          write('sync-bad.yaml', manifest('sync-bad')),
        ],
        code: 1,
        values: [SECRET, `../${SECRET}`],
      },
      {
        // A passphrase with spaces: the result table wraps its MESSAGE column between words, and the
        // words of the value were printed on lines of their own, out of the mask's sight.
        what: 'sync -y: a Secret with spaces in the failing subPathExpr, in the wrapped result table',
        argv: [
          'sync',
          '-y',
          ...nodeFlags(lab),
          '--env-file',
          envFile('sync-spaced', `../${SECRET} correct-horse-battery staple`),
          write('sync-spaced.yaml', manifest('sync-spaced')),
        ],
        code: 1,
        values: [SECRET, 'correct-horse-battery'],
      },
      {
        what: 'sync --node --dry-run',
        argv: ['sync', '--node', '--dry-run', '--pods-api-socket', 'none', ...nodeFlags(lab), '--env-file', e, m],
      },
    ];
  },
  runp: async () => {
    const m = write('runp.yaml', manifest('runp'));
    const e = envFile('runp');
    return [
      { what: 'runp --dry-run', argv: ['runp', '--dry-run', ...nodeFlags(lab), '--env-file', e, m], code: 0 },
      { what: 'runp --debug', argv: ['--debug', 'runp', ...nodeFlags(lab), '--env-file', e, m], code: 0 },
    ];
  },
  create: async () => {
    const m = write('create.yaml', manifest('create'));
    const e = envFile('create');
    const r = await syncpod(['runp', ...nodeFlags(lab), '--env-file', e, m], { env: lab.env, netns: lab.netns });
    assert.equal(r.code, 0, r.stderr);
    const pod = r.stdout.trim();
    const bad = envFile('create-bad', `../${SECRET}`);
    const flags = [...nodeFlags(lab), '--container', 'app'];
    return [
      { what: 'create --dry-run', argv: ['create', '--dry-run', ...flags, '--env-file', e, pod, m], code: 0 },
      { what: 'create --debug', argv: ['--debug', 'create', ...flags, '--env-file', e, pod, m], code: 0 },
      {
        what: 'create --debug: refused subPathExpr made from the Secret',
        argv: ['--debug', 'create', ...flags, '--env-file', bad, pod, m],
        code: 1,
        values: [SECRET, `../${SECRET}`],
      },
      {
        what: 'create: refused subPathExpr made from the Secret',
        argv: ['create', ...flags, '--env-file', bad, pod, m],
        code: 1,
        values: [SECRET, `../${SECRET}`],
      },
    ];
  },
  node: async () => [
    { what: 'node -o yaml', argv: ['--debug', 'node', '-o', 'yaml', ...nodeFlags(lab), '--env-file', envFile('node')] },
  ],
  pull: async () => {
    const auth = Buffer.from(`someone:${PULL_PASSWORD}`).toString('base64');
    const values = [PULL_PASSWORD, auth];
    return [
      {
        what: 'pull --creds --dry-run',
        argv: ['pull', '--dry-run', '--creds', `someone:${PULL_PASSWORD}`, BUSYBOX_IMAGE],
        code: 0,
        values,
      },
      { what: 'pull --auth --dry-run', argv: ['pull', '--dry-run', '--auth', auth, BUSYBOX_IMAGE], code: 0, values },
      {
        what: 'pull --debug from a registry that is not there',
        argv: ['--debug', 'pull', '--creds', `someone:${PULL_PASSWORD}`, '127.0.0.1:9/nothing:1'],
        code: 1,
        values,
      },
    ];
  },
};

/** An --env-file giving pod NAME's Secrets the value `value` (db/password and the envFrom Secret). */
function envFile(name: string, value = SECRET): string {
  return write(
    `${name}.env`,
    `secrets/db/password=${value}\nsecrets/more/token=${value}-token\n# ConfigMap-looking lines are not secret\n`,
  );
}

for (const [command, runs] of Object.entries(RUNS)) {
  test(`${command}: no Secret value in stdout or stderr (--debug, --dry-run, errors)`, async () => {
    for (const run of await runs()) {
      const r = await syncpod(run.argv, { env: lab.env, netns: lab.netns, timeoutMs: 120_000 });
      if (run.code !== undefined)
        assert.equal(r.code, run.code, `${run.what}: exit ${r.code}\n${r.stderr.slice(0, 2000)}`);
      assertNoSecret(run.what, r, run.values ?? [SECRET, `${SECRET}-token`]);
    }
  });
}

test('--show-secrets prints them, so the runs above can see a value when it is there', async () => {
  const m = write('shown.yaml', manifest('shown'));
  const r = await syncpod(
    ['sync', '--dry-run', '--show-secrets', ...nodeFlags(lab), '--env-file', envFile('shown'), m],
    {
      env: lab.env,
      netns: lab.netns,
    },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(`--password=${SECRET}`), 'the expanded argument');
  assert.ok(r.stdout.includes(`/${SECRET}`), 'the subPathExpr directory');
});
