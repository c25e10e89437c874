// The doctor's pure parts: --check/--skip selection (unknown ids refused), the concurrent run with a
// deadline per check (a hung check is skip: timed out, the rest answer), the memoised CRI reads
// (each list sent once), the report summary and --detailed-exitcode, NPD's line within its
// 80-byte limit, and the Prometheus text format checked line by line against the exposition grammar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDoctorReport, clipForNpd, doctorExitCode, npdStatus, NPD_MAX_OUTPUT } from '../../src/doctor/report';
import type { CheckResult, DoctorCheck, DoctorEnv } from '../../src/doctor/types';
import { DOCTOR_CHECKS } from '../../src/doctor/registry';
import { memoisedCallers, runChecks, selectChecks } from '../../src/workflows/doctor';
import { promLabel, renderDoctorPrometheus, renderDoctorTable } from '../../src/render/doctor-view';
import { podInfraContainerImage } from '../../src/doctor/checks/kubelet';
import { imageMatches, runtimeInfoCgroupDriver, runtimeSandboxImage } from '../../src/doctor/runtime-info';
import { crioConfigFacts } from '../../src/node/crio-config';

const check = (
  id: string,
  group: DoctorCheck['group'],
  run: DoctorCheck['run'] = async () => ({ status: 'ok', summary: 'fine.', evidence: [] }),
): DoctorCheck => ({ id, group, title: id, run });
const result = (id: string, status: CheckResult['status'], summary = 'something.'): CheckResult => ({
  id,
  group: id.split('.')[0] as CheckResult['group'],
  status,
  summary,
  evidence: [],
  durationMs: 1,
});

test('selectChecks: ids and groups in registry order; an unknown value names its flag', () => {
  const all = [check('runtime.ready', 'runtime'), check('runtime.version', 'runtime'), check('pods.stuck', 'pods')];
  assert.deepEqual(
    selectChecks(all, [], []).map((c) => c.id),
    ['runtime.ready', 'runtime.version', 'pods.stuck'],
  );
  assert.deepEqual(
    selectChecks(all, ['pods.stuck', 'runtime'], ['runtime.version']).map((c) => c.id),
    ['runtime.ready', 'pods.stuck'],
  );
  assert.throws(() => selectChecks(all, ['runtime.redy'], []), /^SyncpodError: --check: unknown check "runtime\.redy"/);
  assert.throws(() => selectChecks(all, [], ['nope']), /--skip: unknown check "nope"/);
});

test('the registry: ids unique, each in its group, the ids the issue names for this group are there', () => {
  const ids = DOCTOR_CHECKS.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const c of DOCTOR_CHECKS) assert.ok(c.id.startsWith(`${c.group}.`), c.id);
  for (const id of [
    'runtime.reachable',
    'runtime.ready',
    'runtime.network-ready',
    'kubelet.found',
    'kubelet.version',
    'kubelet.cgroup-driver',
    'kubelet.sandbox-image',
    'pods.crashloop',
    'pods.oomkilled',
    'pods.stuck',
    'pods.dead-sandboxes',
    'pods.orphans',
  ]) {
    assert.ok(ids.includes(id), id);
  }
});

test('runChecks: a hung check is skip: timed out while the others answer; a throwing one is skip with its reason; order kept', async () => {
  const checks = [
    check('runtime.ready', 'runtime'),
    check('runtime.version', 'runtime', () => new Promise(() => undefined)),
    check('pods.stuck', 'pods', async () => {
      throw new Error('ListContainers: connection refused');
    }),
  ];
  const results = await runChecks(checks, {} as DoctorEnv, { deadlineMs: 50, clock: () => 0 });
  assert.deepEqual(
    results.map((r) => [r.id, r.status, r.summary]),
    [
      ['runtime.ready', 'ok', 'fine.'],
      ['runtime.version', 'skip', 'timed out: no answer within 0.05s'],
      ['pods.stuck', 'skip', 'could not run: ListContainers: connection refused'],
    ],
  );
});

test('memoisedCallers: each unfiltered list, Status and Version sent once whoever asks; filtered lists and single statuses go through', async () => {
  const sent: string[] = [];
  const fake = {
    call: async (method: string, req: unknown) => (
      sent.push(`${method} ${JSON.stringify(req)}`),
      method === 'ListPodSandbox' ? { items: [] } : { containers: [], images: [] }
    ),
  };
  const { runtime, image } = memoisedCallers(fake as never, fake as never);
  await Promise.all([
    runtime.call('ListPodSandbox', {}),
    runtime.call('ListPodSandbox', {}),
    runtime.call('ListContainers', {}),
    runtime.call('ListContainers', { filter: undefined }),
  ]);
  await runtime.call('Status', { verbose: false });
  await runtime.call('Status', { verbose: true });
  await runtime.call('ListContainers', { filter: { podSandboxId: 'x' } });
  await runtime.call('ContainerStatus', { containerId: 'a' });
  await runtime.call('ContainerStatus', { containerId: 'a' });
  await image.call('ListImages', {});
  await image.call('ListImages', {});
  assert.deepEqual(sent, [
    'ListPodSandbox {}',
    'ListContainers {}',
    'Status {"verbose":true}',
    'ListContainers {"filter":{"podSandboxId":"x"}}',
    'ContainerStatus {"containerId":"a"}',
    'ContainerStatus {"containerId":"a"}',
    'ListImages {}',
  ]);
});

test('the summary and --detailed-exitcode: 0 all ok or skipped, 2 when one warns or fails', () => {
  const okOnly = buildDoctorReport('n1', [result('runtime.ready', 'ok'), result('kubelet.found', 'skip')]);
  assert.equal(okOnly.summary.text, 'Node n1: 1 ok, 1 skipped (2 checks).');
  assert.equal(doctorExitCode(okOnly, true), 0);
  const bad = buildDoctorReport('n1', [
    result('runtime.ready', 'fail'),
    result('pods.stuck', 'warn'),
    result('pods.orphans', 'ok'),
  ]);
  assert.deepEqual([bad.summary.status, bad.summary.text], ['fail', 'Node n1: 1 fail, 1 warn, 1 ok (3 checks).']);
  assert.equal(doctorExitCode(bad, true), 2);
  assert.equal(doctorExitCode(bad, false), 0);
  assert.equal(doctorExitCode(buildDoctorReport('n', [result('pods.stuck', 'warn')]), true), 2);
});

test('NPD: exit 0 OK / 1 NonOK (first fail, else first warn) / 2 Unknown (nothing could run); the line within 80 bytes, never split inside a character', () => {
  assert.deepEqual(
    npdStatus(buildDoctorReport('n', [result('runtime.ready', 'ok'), result('kubelet.found', 'skip')])),
    { exitCode: 0, line: 'OK: 1 checks ok, 1 skipped' },
  );
  const long =
    'NetworkReady is false: NetworkPluginNotReady: Network plugin returns error: cni plugin not initialized.';
  const nonOk = npdStatus(
    buildDoctorReport('n', [result('pods.stuck', 'warn'), result('runtime.network-ready', 'fail', long)]),
  );
  assert.equal(nonOk.exitCode, 1);
  assert.ok(nonOk.line.startsWith('NonOK: 1 fail, 1 warn: runtime.network-ready: NetworkReady is false'), nonOk.line);
  assert.equal(Buffer.byteLength(nonOk.line), NPD_MAX_OUTPUT);
  assert.ok(nonOk.line.endsWith('...'));
  assert.equal(npdStatus(buildDoctorReport('n', [result('runtime.ready', 'skip')])).exitCode, 2);
  const wide = clipForNpd('é'.repeat(60));
  assert.ok(Buffer.byteLength(wide) <= 80 && !wide.includes('\uFFFD') && wide.endsWith('...'));
  assert.equal(clipForNpd('short'), 'short');
});

test('Prometheus: every line is a comment or a sample of the text exposition format; values 0/1/2; labels escaped; a timestamp gauge', () => {
  const report = buildDoctorReport('node "a"\\b', [
    result('runtime.ready', 'ok'),
    result('pods.stuck', 'warn'),
    result('runtime.network-ready', 'fail'),
    result('kubelet.found', 'skip'),
  ]);
  const text = renderDoctorPrometheus(report, 1_700_000_000_123);
  assert.ok(text.endsWith('\n'));
  const sample =
    /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\["\\n])*",?)*)\} (-?\d+(?:\.\d+)?)$/;
  const typed = new Set<string>();
  for (const line of text.trimEnd().split('\n')) {
    if (line.startsWith('# TYPE ')) {
      typed.add(line.split(' ')[2]);
      assert.match(line, / gauge$/);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const m = sample.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    assert.ok(typed.has(m![1]), `${m![1]} sampled before its TYPE line`);
  }
  assert.match(text, /^syncpod_doctor_check\{check="runtime\.ready",group="runtime",node="node \\"a\\"\\\\b"\} 0$/m);
  assert.match(text, /^syncpod_doctor_check\{check="pods\.stuck",group="pods",node="[^\n]*\} 1$/m);
  assert.match(text, /^syncpod_doctor_check\{check="runtime\.network-ready",group="runtime",node="[^\n]*\} 2$/m);
  assert.doesNotMatch(text, /^syncpod_doctor_check\{check="kubelet\.found"/m);
  assert.match(text, /^syncpod_doctor_check_skipped\{check="kubelet\.found",group="kubelet",node="[^\n]*\} 1$/m);
  assert.match(text, /^syncpod_doctor_last_run_timestamp_seconds\{node="[^\n]*\} 1700000000$/m);
  assert.equal(promLabel('a\nb'), 'a\\nb');
});

test('the human view: grouped in registry order, status symbol, id, finding, remedy; no escape codes with the plain palette', () => {
  const r = {
    ...result('runtime.network-ready', 'fail', 'NetworkReady is false.'),
    remedy: 'Put a CNI config in /etc/cni/net.d.',
  };
  const text = renderDoctorTable(
    buildDoctorReport('n', [r, result('pods.stuck', 'ok', 'Nothing stuck.')]),
    undefined,
    120,
  );
  assert.equal(
    text,
    [
      'RUNTIME',
      'STATUS   CHECK                   FINDING                  REMEDY',
      '✘ fail   runtime.network-ready   NetworkReady is false.   Put a CNI config in /etc/cni/net.d.',
      '',
      'PODS',
      'STATUS   CHECK        FINDING          REMEDY',
      '✔ ok     pods.stuck   Nothing stuck.',
      '',
      'Node n: 1 fail, 1 ok (2 checks).',
      '',
    ].join('\n'),
  );
  assert.doesNotMatch(text, /\x1b\[/);
});

test('the human view puts what needs attention first and wraps FINDING and REMEDY to the width, never cutting a word', () => {
  const long =
    'The kubelet runs with cgroupDriver systemd while the runtime reports cgroupfs for its default handler runc, so pods fail to start.';
  const checks = [
    result('runtime.reachable', 'ok', 'The runtime answers.'),
    result('pods.stuck', 'ok', 'Nothing stuck.'),
    result('pods.crashloop', 'warn', 'web restarts.'),
    {
      ...result('kubelet.cgroup-driver', 'fail', long),
      remedy: 'Set SystemdCgroup = true in the runc options of /etc/containerd/config.toml and restart containerd.',
    },
  ];
  const text = renderDoctorTable(buildDoctorReport('n', checks), undefined, 80);
  const lines = text.trimEnd().split('\n');
  // kubelet (a fail) and pods (a warn) before runtime (all ok); in pods the warn before the ok.
  assert.deepEqual(
    lines.filter((l) => /^[A-Z]+$/.test(l)),
    ['KUBELET', 'PODS', 'RUNTIME'],
  );
  assert.ok(lines.findIndex((l) => l.includes('pods.crashloop')) < lines.findIndex((l) => l.includes('pods.stuck')));
  for (const l of lines) assert.ok(l.length <= 80, l);
  const words = (t: string) => t.split(/\s+/).filter(Boolean);
  for (const w of [...words(long), ...words(checks[3]!.remedy!)]) assert.ok(words(text).includes(w), w);
});

test("the runtime's own configuration in Status info, the kubelet's pause image flag, image names compared as references", () => {
  const status = (config: unknown) => ({ info: { config: JSON.stringify(config) }, runtimeHandlers: [] });
  assert.deepEqual(runtimeSandboxImage(status({ sandboxImage: 'registry.k8s.io/pause:3.9' })), {
    image: 'registry.k8s.io/pause:3.9',
    from: 'CRI Status info.config.sandboxImage',
  });
  assert.equal(
    runtimeSandboxImage(status({ pinnedImages: { sandbox: 'registry.k8s.io/pause:3.10' }, sandboxImage: 'x' }))!.image,
    'registry.k8s.io/pause:3.10',
  );
  assert.equal(runtimeSandboxImage({ info: {}, runtimeHandlers: [] }), undefined);
  assert.equal(
    runtimeInfoCgroupDriver(
      status({ containerd: { defaultRuntimeName: 'runc', runtimes: { runc: { options: { SystemdCgroup: true } } } } }),
    )!.driver,
    'systemd',
  );
  assert.equal(
    runtimeInfoCgroupDriver(status({ containerd: { runtimes: { runc: { options: {} } } } }))!.driver,
    'cgroupfs',
  );
  assert.equal(
    podInfraContainerImage(['--config', 'c.yaml', '--pod-infra-container-image=reg/pause:3.9']),
    'reg/pause:3.9',
  );
  assert.equal(podInfraContainerImage(['--pod-infra-container-image', 'reg/pause:3.8']), 'reg/pause:3.8');
  assert.equal(podInfraContainerImage(['--v=2']), undefined);
  assert.ok(imageMatches('pause:3.9', ['docker.io/library/pause:3.9']));
  assert.ok(imageMatches('localhost/syncpod/pause:3.9', ['localhost/syncpod/pause:3.9']));
  assert.ok(!imageMatches('registry.k8s.io/pause:3.10', ['registry.k8s.io/pause:3.9']));
});

test('report: doctor reports from a second container are merged beside the plans by node, the newest winning; findings fail first', async () => {
  const { buildFleetReport } = await import('../../src/fleet/report');
  const { renderFleetReport } = await import('../../src/render/report-view');
  const { buildNodePlan } = await import('../../src/plan/node-plan');
  const plan = JSON.stringify(buildNodePlan('node-a', [], [], []));
  const older = JSON.stringify(buildDoctorReport('node-a', [result('runtime.ready', 'fail')]));
  const newer = JSON.stringify(
    buildDoctorReport('node-a', [
      result('pods.stuck', 'warn', 'one stuck.'),
      result('runtime.network-ready', 'fail', 'NetworkReady is false.'),
      result('runtime.ready', 'ok'),
    ]),
  );
  const onlyDoctor = JSON.stringify(buildDoctorReport('node-b', [result('runtime.ready', 'ok')]));
  const log = [
    `[pod/s-a/syncpod] 2026-11-25T01:00:00Z ${plan}`,
    `[pod/s-a/doctor] 2026-11-25T01:00:00Z ${older}`,
    `[pod/s-a/doctor] 2026-11-25T01:10:00Z ${newer}`,
    `[pod/s-b/doctor] 2026-11-25T01:10:00Z ${onlyDoctor}`,
  ].join('\n');
  const r = buildFleetReport([{ name: '<stdin>', text: log }]);
  assert.deepEqual(
    r.nodes.map((n) => [n.node, n.runs, n.doctor?.status, n.doctor?.runs, n.doctor?.findings, n.errors]),
    [
      [
        'node-a',
        1,
        'fail',
        2,
        ['fail runtime.network-ready: NetworkReady is false.', 'warn pods.stuck: one stuck.'],
        [],
      ],
      ['node-b', 0, 'ok', 1, [], []],
    ],
  );
  assert.equal(r.summary.nodesWithDoctorFindings, 1);
  assert.match(r.summary.text, /; 1 of 2 doctored nodes with findings\.$/);
  const text = renderFleetReport(r);
  assert.match(text, /^NODE +PODS .* DOCTOR$/m);
  assert.match(text, /^node-a .* fail \(2\)$/m);
  assert.match(text, /^  doctor: fail runtime\.network-ready: NetworkReady is false\.$/m);
});

// ---------------------------------------------------------------------------------------------
// checks against a hand-written DoctorEnv

type Lists = {
  sandboxes?: unknown[];
  containers?: unknown[];
  statuses?: Record<string, unknown>;
  desired?: string[];
  runtimeDriver?: 'systemd' | 'cgroupfs';
};
const NOW = 1_800_000_000_000;
const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
function fakeEnv(profile: Record<string, unknown>, l: Lists = {}): DoctorEnv {
  const unused = () => Promise.reject(new Error('not used'));
  return {
    profile: {
      kubeletVersion: { value: '1.33', source: 'default' },
      staticPodPath: { value: '', source: 'default' },
      ...profile,
    } as never,
    readNodeFile: unused,
    nodePath: (p) => p,
    now: () => NOW,
    bounds: { stuckAfterMs: 120_000, deadlineMs: 10_000 },
    cri: {
      endpoint: 'unix:///run/fake.sock',
      version: unused,
      status: async () => ({ info: {}, runtimeHandlers: [] }),
      runtimeConfig: async () =>
        l.runtimeDriver
          ? { answered: true, cgroupDriver: l.runtimeDriver, endpoint: 'unix:///run/fake.sock' }
          : { answered: false, why: 'RuntimeConfig is not implemented' },
      sandboxes: async () => (l.sandboxes ?? []) as never,
      containers: async () => (l.containers ?? []) as never,
      containerStatus: async (id) => l.statuses?.[id] as never,
      images: async () => [],
      imageFsInfo: unused,
    },
    nodePlan: async () => ({
      plan: { orphans: [], problems: [], plans: [] } as never,
      podsApiRead: false,
      desiredUids: new Set(l.desired ?? []),
    }),
  };
}
const byId = (id: string) => DOCTOR_CHECKS.find((c) => c.id === id)!;
const labels = (uid: string, name: string, container?: string) => ({
  'io.kubernetes.pod.uid': uid,
  'io.kubernetes.pod.name': name,
  'io.kubernetes.pod.namespace': 'ns',
  ...(container ? { 'io.kubernetes.container.name': container } : {}),
});

test("kubelet.cgroup-driver: the kubelet's own driver against the runtime's; a kubelet taking the runtime's agrees; no kubelet is skip", async () => {
  const kubelet = { pid: 7, exe: '/usr/bin/kubelet', args: [], dropIns: [] };
  const cases: Array<[string, Record<string, unknown>, Lists, string]> = [
    [
      'config systemd, runtime cgroupfs',
      { kubelet, cgroupDriver: { value: 'systemd', source: 'kubelet-config', from: '/var/lib/kubelet/config.yaml' } },
      { runtimeDriver: 'cgroupfs' },
      'fail',
    ],
    [
      'both systemd',
      { kubelet, cgroupDriver: { value: 'systemd', source: 'kubelet-config' } },
      { runtimeDriver: 'systemd' },
      'ok',
    ],
    [
      "kubelet takes the runtime's",
      { kubelet, cgroupDriver: { value: 'systemd', source: 'runtime' } },
      { runtimeDriver: 'systemd' },
      'ok',
    ],
    ['runtime says nothing', { kubelet, cgroupDriver: { value: 'systemd', source: 'kubelet-config' } }, {}, 'skip'],
    ['no kubelet', { cgroupDriver: { value: 'cgroupfs', source: 'default' } }, { runtimeDriver: 'systemd' }, 'skip'],
  ];
  for (const [name, profile, lists, want] of cases) {
    const r = await byId('kubelet.cgroup-driver').run(fakeEnv(profile, lists));
    assert.equal(r.status, want, `${name}: ${r.summary}`);
  }
});

test("pods.dead-sandboxes: kubelet's GC keeps the newest sandbox of a live pod and removes every NotReady one of a pod that is gone", async () => {
  const sb = (id: string, uid: string, state: string, ageS: number) => ({
    id,
    state,
    createdAt: ns(NOW - ageS * 1000),
    labels: labels(uid, `pod-${uid}`),
    metadata: { attempt: 0 },
  });
  const env = fakeEnv(
    {},
    {
      desired: ['live', 'live-only'],
      sandboxes: [
        sb('old', 'live', 'SANDBOX_NOTREADY', 600),
        sb('new', 'live', 'SANDBOX_READY', 60),
        sb('kept', 'live-only', 'SANDBOX_NOTREADY', 60),
        sb('gone', 'deleted', 'SANDBOX_NOTREADY', 30),
      ],
    },
  );
  const r = await byId('pods.dead-sandboxes').run(env);
  assert.equal(r.status, 'warn');
  assert.deepEqual(
    r.evidence.map((e) => e.value.split(',')[0]),
    ['NotReady sandbox old', 'NotReady sandbox gone'],
  );
});

test('pods.crashloop and pods.oomkilled: the newest exited instance of each container, its restart count and the back-off now', async () => {
  const c = (id: string, uid: string, name: string, state: string, ageS: number, restarts: number) => ({
    id,
    podSandboxId: 's',
    state,
    createdAt: ns(NOW - ageS * 1000),
    labels: labels(uid, `pod-${uid}`, name),
    annotations: { 'io.kubernetes.container.restartCount': String(restarts) },
  });
  const st = (exitCode: number, reason: string, finishedAgoS: number) => ({
    exitCode,
    reason,
    startedAt: ns(NOW - (finishedAgoS + 1) * 1000),
    finishedAt: ns(NOW - finishedAgoS * 1000),
    annotations: {},
  });
  const env = fakeEnv(
    {},
    {
      containers: [
        c('loop2', 'a', 'app', 'CONTAINER_EXITED', 5, 2),
        c('loop1', 'a', 'app', 'CONTAINER_EXITED', 50, 1),
        c('oom1', 'b', 'eat', 'CONTAINER_EXITED', 100, 0),
        c('oom2', 'b', 'eat', 'CONTAINER_RUNNING', 10, 1),
        c('done', 'c', 'job', 'CONTAINER_EXITED', 100, 0),
      ],
      statuses: { loop2: st(1, 'Error', 3), oom1: st(137, 'OOMKilled', 20), done: st(0, 'Completed', 90) },
    },
  );
  const loop = await byId('pods.crashloop').run(env);
  assert.equal(loop.status, 'fail');
  assert.deepEqual(
    loop.evidence.map((e) => [e.name, e.value]),
    [['ns/pod-a app', 'restarts 2, last exit code 1 Error; CrashLoopBackOff, next start in ~17s of 20s']],
  );
  const oom = await byId('pods.oomkilled').run(env);
  assert.equal(oom.status, 'warn');
  assert.equal(oom.evidence.length, 1);
  assert.match(oom.evidence[0].value, /^OOMKilled, exit code 137, finished .*, running again$/);
});

test('no kubelet is one finding: kubelet.found names the checks it skips, which are not rows of their own', async () => {
  // The kubelet group run as doctor runs it, on a node without a kubelet.
  const kubeletChecks = DOCTOR_CHECKS.filter((c) => c.group === 'kubelet');
  const env = fakeEnv({ cgroupDriver: { value: 'cgroupfs', source: 'default' } }, { runtimeDriver: 'systemd' });
  const results = await runChecks(kubeletChecks, env, { deadlineMs: 5000, clock: () => 0 });
  const report = buildDoctorReport('n1', results);
  const noKubelet = report.checks.filter((c) => /No kubelet process was found/.test(c.summary));
  assert.equal(noKubelet.length, 1, report.checks.map((c) => `${c.id}: ${c.summary}`).join('\n'));
  assert.equal(noKubelet[0]!.id, 'kubelet.found');
  assert.deepEqual(noKubelet[0]!.skips, ['kubelet.version', 'kubelet.config', 'kubelet.cgroup-driver']);
  assert.match(noKubelet[0]!.summary, /\(skips kubelet\.version, kubelet\.config, kubelet\.cgroup-driver\)\.$/);
  const ids = report.checks.map((c) => c.id);
  for (const gone of ['kubelet.version', 'kubelet.config', 'kubelet.cgroup-driver'])
    assert.ok(!ids.includes(gone), gone);
  assert.equal(report.summary.total, report.checks.length);
  assert.ok(
    report.checks.every((c) => !('coveredBy' in c)),
    'coveredBy stays out of the report',
  );
  // Without kubelet.found in the run (--check kubelet.version), the skip stays a row of its own.
  const alone = buildDoctorReport(
    'n1',
    await runChecks([byId('kubelet.version')], env, { deadlineMs: 5000, clock: () => 0 }),
  );
  assert.deepEqual(
    alone.checks.map((c) => [c.id, c.status]),
    [['kubelet.version', 'skip']],
  );
  assert.match(alone.checks[0]!.summary, /No kubelet process was found/);
  // With --cgroup-driver given, kubelet.cgroup-driver still compares it with the runtime's: its own row.
  const flagged = buildDoctorReport(
    'n1',
    await runChecks(
      kubeletChecks,
      fakeEnv(
        { cgroupDriver: { value: 'cgroupfs', source: 'flag', from: '--cgroup-driver' } },
        { runtimeDriver: 'systemd' },
      ),
      { deadlineMs: 5000, clock: () => 0 },
    ),
  );
  assert.deepEqual(flagged.checks.find((c) => c.id === 'kubelet.found')!.skips, ['kubelet.version', 'kubelet.config']);
  assert.ok(flagged.checks.some((c) => c.id === 'kubelet.cgroup-driver'));
});

test("runtime.config-file on CRI-O: its files and flags named; warn when the running CRI-O's driver differs; fail on a value it refuses; kubelet.cgroup-driver's remedy names cgroup_manager", async () => {
  const config = crioConfigFacts(
    [
      { path: '/etc/crio/crio.conf', doc: { crio: { runtime: { cgroup_manager: 'cgroupfs' } } } },
      { path: '/etc/crio/crio.conf.d/10-net.conf', doc: { crio: { network: { network_dir: '/etc/cni/pods.d' } } } },
    ],
    { mainFile: { path: '/etc/crio/crio.conf', read: true }, dropInDir: '/etc/crio/crio.conf.d' },
  );
  const crioConfig = { found: true as const, config, via: 'crio pid 9' };
  const check = byId('runtime.config-file');
  let r = await check.run(fakeEnv({ crioConfig }, { runtimeDriver: 'cgroupfs' }));
  assert.equal(r.status, 'ok', r.summary);
  assert.equal(r.summary, 'CRI-O reads /etc/crio/crio.conf and 1 drop-in: cgroupfs cgroups, CNI in /etc/cni/pods.d.');
  assert.deepEqual(
    r.evidence.map((e) => [e.name, e.value, e.from]),
    [
      ['file', '/etc/crio/crio.conf', 'crio pid 9'],
      ['drop-in', '/etc/crio/crio.conf.d/10-net.conf', '/etc/crio/crio.conf.d'],
      ['cgroup manager', 'cgroupfs', '/etc/crio/crio.conf crio.runtime.cgroup_manager'],
      ['CNI plugin dirs', '/opt/cni/bin/', "CRI-O's default (crio.network.plugin_dirs not set)"],
      ['CNI conf dir', '/etc/cni/pods.d', '/etc/crio/crio.conf.d/10-net.conf crio.network.network_dir'],
      ['pause image', "not set (the release's default)", '/etc/crio/crio.conf'],
    ],
  );
  r = await check.run(fakeEnv({ crioConfig }, { runtimeDriver: 'systemd' }));
  assert.equal(r.status, 'warn', r.summary);
  assert.match(r.summary, /^CRI-O's config gives the cgroupfs cgroup manager but the running CRI-O uses systemd/);
  r = await check.run(
    fakeEnv({
      crioConfig: {
        found: false,
        pid: 9,
        why: '/etc/crio/crio.conf: crio.runtime.cgroup_manager must be "systemd" or "cgroupfs", got "x"',
      },
    }),
  );
  assert.equal(r.status, 'fail', r.summary);
  r = await check.run(fakeEnv({ crioConfig: { found: false, why: 'no crio process runs here' } }));
  assert.equal(r.status, 'skip', r.summary);

  const kubelet = { pid: 7, exe: '/usr/bin/kubelet', args: [], dropIns: [] };
  r = await byId('kubelet.cgroup-driver').run(
    fakeEnv({ kubelet, crioConfig, cgroupDriver: { value: 'systemd', source: 'kubelet-config' } }),
  );
  assert.equal(r.status, 'fail', r.summary);
  assert.deepEqual(
    r.evidence.map((e) => [e.value, e.from]),
    [
      ['systemd', 'kubelet-config'],
      ['cgroupfs', '/etc/crio/crio.conf crio.runtime.cgroup_manager'],
    ],
  );
  assert.match(r.remedy!, /CRI-O's cgroup_manager = "systemd" \(\/etc\/crio\/crio\.conf\)/);
});
