// Hostile input against every kind of command, on a real containerd: each case is refused with
// one line naming the file/document/field (or the flag), exit code 1, no stack trace, and the
// runtime holds afterwards exactly the sandboxes and containers it held before (nothing
// half-made). The table is meant to grow: add a row per hostile input found.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { assertOneLineError, syncpod } from './helpers';
import { nodeFlags } from './sync-helpers';

let lab: Lab;
let dir: string;

/** A pod manifest (YAML text) whose only container gets `extra` (flow-style YAML) appended. */
function pod(name: string, extra = '', specExtra = ''): string {
  return [
    'apiVersion: v1',
    'kind: Pod',
    `metadata: {name: ${name}, namespace: hostile}`,
    'spec:',
    '  terminationGracePeriodSeconds: 1',
    '  containers:',
    `  - {name: app, image: ${BUSYBOX_IMAGE}, imagePullPolicy: IfNotPresent, command: [sh, -c, 'sleep 600']${extra}}`,
    specExtra,
  ].join('\n');
}

function file(name: string, content: string | Buffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
}

/** The runtime's sandboxes and containers, as ids. */
async function runtimeState(): Promise<string> {
  const pods = await syncpod(['pods', '-q'], { env: lab.env });
  const ctrs = await syncpod(['ps', '-a', '-q'], { env: lab.env });
  assert.equal(pods.code, 0, pods.stderr);
  assert.equal(ctrs.code, 0, ctrs.stderr);
  return `pods: ${pods.stdout.split('\n').sort().join(' ')}; containers: ${ctrs.stdout.split('\n').sort().join(' ')}`;
}

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-hostile-'));
  // Something already running, so "nothing changed" is checked against a non-empty runtime.
  const r = await syncpod(['sync', '-y', ...nodeFlags(lab), file('ok.yaml', pod('ok'))], {
    env: lab.env,
    netns: lab.netns,
  });
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('hostile input is refused before anything happens', () => {
  // [what, argv (after the node flags are known), expected stderr line, stdout may hold a report]
  const rows: Array<[string, () => string[], RegExp, boolean?]> = [
    [
      'sync: a subPath climbing out of its volume (the sandbox was created before)',
      () => [
        'sync',
        '-y',
        ...nodeFlags(lab),
        file(
          'subpath.yaml',
          pod(
            'subpath',
            ", volumeMounts: [{name: v, mountPath: /x, subPath: '../../etc'}]",
            '  volumes: [{name: v, emptyDir: {}}]',
          ),
        ),
      ],
      /^syncpod: \S+subpath\.yaml: document 1: spec\.containers\[0\]\.volumeMounts\[0\]\.subPath: invalid value "\.\.\/\.\.\/etc": must not contain '\.\.' \(line 7, column \d+\)$/,
    ],
    [
      'sync: an absolute subPathExpr',
      () => [
        'sync',
        '-y',
        ...nodeFlags(lab),
        file(
          'subpathexpr.yaml',
          pod(
            'subpathexpr',
            ', volumeMounts: [{name: v, mountPath: /x, subPathExpr: /etc}]',
            '  volumes: [{name: v, emptyDir: {}}]',
          ),
        ),
      ],
      /^syncpod: \S+subpathexpr\.yaml: document 1: spec\.containers\[0\]\.volumeMounts\[0\]\.subPathExpr: invalid value "\/etc": must be a relative path/,
    ],
    [
      "runp: a hostPath with '..'",
      () => [
        'runp',
        ...nodeFlags(lab),
        file(
          'hostpath.yaml',
          pod(
            'hostpath',
            ', volumeMounts: [{name: v, mountPath: /x}]',
            '  volumes: [{name: v, hostPath: {path: /var/../etc}}]',
          ),
        ),
      ],
      /^syncpod: \S+hostpath\.yaml: document 1: spec\.volumes\[0\]\.hostPath\.path: invalid value "\/var\/\.\.\/etc": must not contain '\.\.'/,
    ],
    [
      'sync: an env fieldRef kubelet cannot fill in (the sandbox was created before)',
      () => [
        'sync',
        '-y',
        ...nodeFlags(lab),
        file('fieldref.yaml', pod('fieldref', ', env: [{name: A, valueFrom: {fieldRef: {fieldPath: spec.bogus}}}]')),
      ],
      /^syncpod: \S+fieldref\.yaml: document 1: spec\.containers\[0\]\.env\[0\]\.valueFrom\.fieldRef\.fieldPath: unsupported value "spec\.bogus": supported values: "metadata\.name"/,
    ],
    [
      'sync: a resourceFieldRef of an unknown resource',
      () => [
        'sync',
        '-y',
        ...nodeFlags(lab),
        file('resref.yaml', pod('resref', ', env: [{name: A, valueFrom: {resourceFieldRef: {resource: limits.gpu}}}]')),
      ],
      /^syncpod: \S+resref\.yaml: document 1: spec\.containers\[0\]\.env\[0\]\.valueFrom\.resourceFieldRef\.resource: unsupported value "limits\.gpu"/,
    ],
    [
      'plan: cpu: 1e400 (was planned, then failed at CreatePodSandbox without naming the field)',
      () => ['plan', ...nodeFlags(lab), file('cpu.yaml', pod('cpu', ', resources: {limits: {cpu: 1e400}}'))],
      /^syncpod: \S+cpu\.yaml: document 1: spec\.containers\[0\]\.resources\.limits\.cpu: invalid value "\S+": too large \(at most 9007199254740991m\)/,
    ],
    [
      'runp: memory of 10^26 Ei',
      () => [
        'runp',
        ...nodeFlags(lab),
        file('mem.yaml', pod('mem', ', resources: {limits: {memory: 99999999999999999999999999Ei}}')),
      ],
      /^syncpod: \S+mem\.yaml: document 1: spec\.containers\[0\]\.resources\.limits\.memory: invalid value "\S+": too large \(at most 9007199254740991\)/,
    ],
    [
      'plan: a NUL byte in the kind (was "only Pod\\0" as the kind)',
      () => ['plan', ...nodeFlags(lab), file('nul.yaml', 'apiVersion: v1\nkind: Pod\u0000\nmetadata: {name: a}\n')],
      /^syncpod: \S+nul\.yaml: line 2, column 10: control character U\+0000 is not allowed in YAML or JSON text$/,
    ],
    [
      'runp: a crictl config file of two documents (was a YAML library message)',
      () => ['runp', file('two.yaml', 'metadata: {name: a, namespace: b, uid: c}\n---\nmetadata: {name: d}\n')],
      /^syncpod: \S+two\.yaml: 2 documents: a pod config file holds one$/,
    ],
    [
      'runp: UTF-16 text (was a garbage string in the message)',
      () => [
        'runp',
        file('utf16.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('kind: Pod\n', 'utf16le')])),
      ],
      /^syncpod: \S+utf16\.yaml: byte 0: invalid UTF-8 \(manifests must be UTF-8 text\)$/,
    ],
    [
      'plan: deep nesting (was "Maximum call stack size exceeded")',
      () => ['plan', file('deep.yaml', '['.repeat(100000) + ']'.repeat(100000))],
      /^syncpod: \S+deep\.yaml: line 1, column \d+: nested too deeply \(no manifest nests this far\)$/,
    ],
    [
      'plan: /dev/zero (was read until memory ran out)',
      () => ['plan', '/dev/zero'],
      /^syncpod: \/dev\/zero: larger than 8 MiB: refused \(a manifest; the API server admits no object over 3 MiB\)$/,
    ],
    [
      'sync -y: one 512 KiB string used by 998 aliases (was expanded to 500 MB; the sandbox was created first)',
      () => {
        const text = `${pod('laughs')}\n`.replace(
          'metadata: {name: laughs, namespace: hostile}',
          'metadata:\n  name: laughs\n  namespace: hostile\n  annotations:\n    a: &a "' +
            'x'.repeat(512 * 1024) +
            '"\n' +
            [...Array(998)].map((_, i) => `    b${i}: *a`).join('\n'),
        );
        return ['sync', '-y', ...nodeFlags(lab), file('laughs.yaml', text)];
      },
      /^syncpod: \S+laughs\.yaml: document 1: the object expands to 499\.5 MiB \(YAML aliases included\), over the 3 MiB the API server admits for one object: refused$/,
    ],
    [
      'sync -y: a 50 MB annotation (was parsed for 47 s at 2 GB)',
      () => [
        'sync',
        '-y',
        ...nodeFlags(lab),
        file('big.yaml', pod('big', '', `  x: "${'y'.repeat(50 * 1024 * 1024)}"`)),
      ],
      /^syncpod: \S+big\.yaml: larger than 8 MiB: refused \(a manifest; the API server admits no object over 3 MiB\)$/,
    ],
    [
      'plan --node: a binary given file (was a YAML message about comments)',
      () => [
        'plan',
        '--node',
        ...nodeFlags(lab),
        '--pods-api-socket',
        'none',
        file('bin.yaml', Buffer.from([0x6b, 0x3a, 0x20, 0xc3, 0x28])),
      ],
      /^syncpod: \S+bin\.yaml: byte 3: invalid UTF-8/,
      true, // the node plan lists its input problems
    ],
    [
      'report: a binary file (was exit 0 with the bytes printed)',
      () => ['report', file('bin.log', Buffer.from([0x6b, 0x3a, 0x20, 0xc3, 0x28]))],
      /^syncpod: \S+bin\.log: byte 3: invalid UTF-8/,
    ],
    [
      'sync: --cluster-dns that is not an IP (kubelet would drop it silently)',
      () => ['sync', '-y', ...nodeFlags(lab), '--cluster-dns', 'dns.example', file('dns.yaml', pod('dns'))],
      /^syncpod: --cluster-dns: "dns\.example" is not an IP address$/,
    ],
    [
      'sync: --resolv-conf that does not exist (was two lines: a fresh-uid note first)',
      () => [
        'sync',
        '-y',
        ...nodeFlags(lab),
        '--resolv-conf',
        path.join(dir, 'missing.conf'),
        file('resolv.yaml', pod('resolv')),
      ],
      /^syncpod: --resolv-conf \S+missing\.conf: no such file or directory$/,
    ],
    [
      'plan: --every without --node (was ignored)',
      () => ['plan', '--every', '1m', file('every.yaml', pod('every'))],
      /^syncpod: --every applies with --node/,
    ],
    [
      "plan --node: --liveness-failed names one pod's container (was accepted and ignored)",
      () => ['plan', '--node', '--liveness-failed', 'app', ...nodeFlags(lab)],
      /^syncpod: --liveness-failed names a container of one pod and does not apply with --node/,
    ],
    [
      'sync --node: --startup-failed likewise',
      () => ['sync', '--node', '-y', '--startup-failed', 'app', ...nodeFlags(lab)],
      /^syncpod: --startup-failed names a container of one pod and does not apply with --node/,
    ],
    [
      'sync: --remove-orphans without --node (was ignored)',
      () => ['sync', '-y', '--remove-orphans', file('orph.yaml', pod('orph'))],
      /^syncpod: --remove-orphans applies with --node/,
    ],
    [
      'sync: two containers on one hostPort (the second container failed after the sandbox was made)',
      () => [
        'sync',
        '-y',
        ...nodeFlags(lab),
        file(
          'hostport.yaml',
          pod(
            'hostport',
            ', ports: [{containerPort: 80, hostPort: 18080}]}\n  - {name: b, image: busybox, ports: [{containerPort: 81, hostPort: 18080}]',
          ),
        ),
      ],
      /^syncpod: \S+hostport\.yaml: document 1: spec\.containers\[1\]\.ports\[0\]\.hostPort: duplicate value "18080\/TCP" \(also spec\.containers\[0\]\.ports\[0\]\.hostPort\)/,
    ],
    [
      'plan: a List of empty Lists (was "the input has no documents")',
      () => [
        'plan',
        file('lists.json', '{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"List","items":[]}]}'),
      ],
      /^syncpod: \S+lists\.json: no pod found \(its Lists have no items\)$/,
    ],
    [
      'plan --node --every 1000000h (the timer overflowed: plans ran in a tight loop)',
      () => ['plan', '--node', ...nodeFlags(lab), '--pods-api-socket', 'none', '--every', '1000000h', '-o', 'json'],
      /^syncpod: --every: "1000000h" is not a duration between 1s and 596h/,
    ],
    [
      'stats --seconds 99999999 (was a timer overflow warning and exit 0)',
      () => ['stats', '--seconds', '99999999'],
      /^syncpod: --seconds must be at most 2147483$/,
    ],
    [
      'update --memory 2^66 (was a serialization failure)',
      () => ['update', '--memory', '99999999999999999999', 'abc'],
      /^syncpod: option '--memory <bytes>' argument '99999999999999999999' is invalid\. --memory must be a whole number of at most 9007199254740991 in size$/,
    ],
    [
      'exec -s --timeout 10^20 s (was a serialization failure)',
      () => ['exec', '-s', '--timeout', '99999999999999999999', 'abc', 'true'],
      /^syncpod: --timeout: at most 596h/,
    ],
    [
      'a misspelt option (was two lines: the suggestion on its own)',
      () => ['pods', '--lable', 'a=b'],
      /^syncpod: unknown option '--lable' \(Did you mean --label\?\)$/,
    ],
  ];

  for (const [what, argv, pattern, report] of rows) {
    test(what, async () => {
      const before = await runtimeState();
      const r = await syncpod(argv(), { env: lab.env, netns: lab.netns, timeoutMs: 60000 });
      assertOneLineError(r, pattern);
      if (!report) assert.equal(r.stdout, '', 'nothing on stdout');
      assert.equal(await runtimeState(), before, 'the runtime holds what it held before');
    });
  }

  test("sync --env-file FILE run as a program: syncpod's flag, not node's (node exited 9 first)", async () => {
    const r = await syncpod(
      [
        'sync',
        '-y',
        ...nodeFlags(lab),
        '--env-file',
        path.join(dir, 'no-such.env'),
        file('envfile.yaml', pod('envfile')),
      ],
      { env: lab.env, asProgram: true },
    );
    assertOneLineError(r, /^syncpod: --env-file \S+no-such\.env: no such file or directory$/);
  });

  test('an endpoint that speaks HTTP/1: one line without grpc-js wrapping or a timestamp', async (t) => {
    const sock = path.join(dir, 'http1.sock');
    const server = http.createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    t.after(() => server.close());
    const r = await syncpod(['-r', `unix://${sock}`, '--timeout', '3s', 'pods'], { timeoutMs: 20000 });
    assertOneLineError(
      r,
      new RegExp(
        `^syncpod: endpoint unix://${sock}: not a gRPC server, or it closed the connection \\(Protocol error\\)$`,
      ),
    );
  });

  test('--debug still shows the stack of a refusal', async () => {
    const r = await syncpod(['--debug', 'plan', '/dev/zero'], { env: lab.env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^SyncpodError: \/dev\/zero: larger than 8 MiB/);
    assert.match(r.stderr, /\n\s+at /);
  });
});
