// syncpod's plan against the real kubelet v1.37.2 (npm run test:kubelet; needs root, the kubelet that
// `npm run anchors:kubelet` builds and containerd 2.x from `npm run anchors`).
//
// For each case a standalone kubelet (static pods from a directory of its own, no API server; see
// kubelet-run.ts) is brought to a state: it runs the pod, is stopped (SIGKILL; the runtime keeps the
// pod), and the state is changed while no kubelet runs (the static pod file edited, a container told
// to exit through a file in a hostPath directory, a sandbox stopped). Then `syncpod plan --node` is
// taken, and kubelet is started again on the same root: it finds the same CRI state, the same static
// pod uid for the same file, and — as syncpod assumes — no back-off or probe history (kept in memory
// only). What kubelet then did is read through CRI with crictl 1.37: containers created and started
// (in creation order), running containers stopped, sandboxes stopped or created (attempt), objects
// removed, resources changed. Kubelet's log (-v=4, "SyncPod enter/exit") only bounds the sync being
// compared: objects created or finished after the end of kubelet's first sync that acted are a later
// sync's. The plan's steps, translated to the same words, must equal that exactly.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLab, crictlBinary, BUSYBOX_IMAGE, BUSYBOX_IMAGE_2, type Lab } from '../harness/lab';
import { syncpod } from '../e2e/helpers';
import {
  KUBELET,
  NODE_NAME,
  KubeletRun,
  anyEffect,
  criState,
  effectsBetween,
  planEffects,
  pidsWith,
  sleep,
  syncMarks,
  timedEffectTimes,
  type CriState,
  type Effects,
  type KubeletNode,
} from './kubelet-run';

const LOOP = 'trap "exit 0" TERM; while true; do sleep 0.2; done';
/** A container that runs until /ctl/<file> exists, then exits with `code`. */
const until = (file: string, code: number): string =>
  `trap "exit 0" TERM; until [ -f /ctl/${file} ]; do sleep 0.2; done; exit ${code}`;

let lab: Lab;
let crictl: string;
let dir: string;
let devicePluginSockExisted = false;
const DEVICE_PLUGIN_SOCK = '/var/lib/kubelet/device-plugins/kubelet.sock';
let devicePluginDirExisted = false;
/** This run's cgroup root for kubelets with QoS cgroups (cgroupfs form), made on first use. */
let cgroupRoot: string | undefined;

/** cgroup v1 hierarchies (or the v2 root) where kubelet's cgroupfs manager makes its cgroups. */
function cgroupHierarchies(): string[] {
  if (fs.existsSync('/sys/fs/cgroup/cgroup.controllers')) return ['/sys/fs/cgroup'];
  return fs
    .readdirSync('/sys/fs/cgroup')
    .filter((d) => d !== 'unified' && fs.existsSync(`/sys/fs/cgroup/${d}/cgroup.procs`))
    .map((d) => `/sys/fs/cgroup/${d}`);
}

function makeCgroupRoot(name: string): string {
  for (const h of cgroupHierarchies()) {
    fs.mkdirSync(path.join(h, name), { recursive: true });
    // a v1 cpuset cgroup takes no task until it has CPUs and memory nodes
    for (const f of ['cpuset.cpus', 'cpuset.mems'])
      if (fs.existsSync(path.join(h, f)))
        fs.writeFileSync(path.join(h, name, f), fs.readFileSync(path.join(h, f), 'utf8').trim());
  }
  return `/${name}`;
}

/** Removes the cgroups under a root, deepest first (their tasks are gone once the pods are). */
function removeCgroupTree(root: string): void {
  for (const h of cgroupHierarchies()) {
    const top = path.join(h, root);
    if (!fs.existsSync(top)) continue;
    const dirs: string[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(path.join(d, e.name));
      dirs.push(d);
    };
    walk(top);
    for (const d of dirs) {
      try {
        fs.rmdirSync(d);
      } catch {
        /* still in use: reported by the check below */
      }
    }
  }
}

interface Ctx {
  node: KubeletNode;
  ns: string;
  podName: string;
  /** Writes the static pod file (the same file name every time). */
  writePod(pod: object): void;
  /** Runs kubelet until `pred` holds for the pod's CRI state, then stops it. */
  runUntil(what: string, pred: (s: CriState) => boolean): Promise<void>;
  /** Tells a waiting container to exit (creates /ctl/<file>), waits until CRI shows it exited, removes the file. */
  release(file: string, container: string): Promise<void>;
  state(): CriState;
}

interface Case {
  name: string;
  /** The pod as first written (metadata.name is the case's name, namespace its own). */
  pod(c: Ctx): { metadata?: Record<string, unknown>; spec: Record<string, unknown> };
  gates?: Record<string, boolean>;
  /** Brings the runtime to the state the plan is taken from; no kubelet runs afterwards. */
  prepare(c: Ctx): Promise<void>;
  planArgs?: string[];
  /** The plan's steps this case is built to reach (action and target), checked first. */
  steps: string[];
  /**
   * Plan the mirror pod (`kubectl get pod -o yaml | syncpod plan -`) instead of `plan --node`: the
   * probe flags act only there (plan --node takes --liveness-failed and ignores it).
   */
  planMirror?: boolean;
  /**
   * Run kubelet with QoS cgroups (cgroupsPerQOS) under a cgroup root of this run's own: kubelet's
   * in-place resize needs the pod cgroup (with cgroupsPerQOS false, kubelet v1.37.2 panics in
   * doPodResizeAction).
   */
  qos?: boolean;
  /** Compare with the first sync that acts (a probe's result comes after kubelet's start), not the first sync. */
  firstActing?: boolean;
}

const running = (name: string) => (s: CriState) =>
  s.containers.some((c) => c.name === name && c.state === 'CONTAINER_RUNNING');
const exitedTimes = (name: string, n: number) => (s: CriState) =>
  s.containers.filter((c) => c.name === name && c.state === 'CONTAINER_EXITED').length >= n &&
  !s.containers.some((c) => c.name === name && c.state !== 'CONTAINER_EXITED');

function container(name: string, script: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    image: BUSYBOX_IMAGE,
    imagePullPolicy: 'IfNotPresent',
    command: ['sh', '-c', script],
    volumeMounts: [{ name: 'ctl', mountPath: '/ctl' }],
    ...extra,
  };
}

function spec(c: Ctx, s: Record<string, unknown>): Record<string, unknown> {
  return {
    terminationGracePeriodSeconds: 2,
    volumes: [{ name: 'ctl', hostPath: { path: c.node.ctl, type: 'Directory' } }],
    ...s,
  };
}

/** Requests and limits alike (a Guaranteed container). */
const resources = (cpu: string, memory: string) => ({ requests: { cpu, memory }, limits: { cpu, memory } });

const UID = (n: number) => `5e0c1d2e-0000-4000-8000-${String(n).padStart(12, '0')}`;

const CASES: Case[] = [
  {
    name: 'crash-loop',
    pod: (c) => ({ spec: spec(c, { containers: [container('app', 'echo start; exit 1')] }) }),
    prepare: (c) => c.runUntil('app exited twice', exitedTimes('app', 2)),
    steps: ['start-container app'],
  },
  {
    name: 'image-changed-new-uid',
    pod: (c) => ({ spec: spec(c, { containers: [container('app', LOOP)] }) }),
    async prepare(c) {
      await c.runUntil('app running', running('app'));
      const pod = this.pod(c);
      (pod.spec.containers as any[])[0].image = BUSYBOX_IMAGE_2;
      c.writePod(pod);
    },
    steps: ['create-sandbox attempt 0', 'start-container app'],
  },
  {
    name: 'image-changed-same-uid',
    pod: (c) => ({ metadata: { uid: UID(3) }, spec: spec(c, { containers: [container('app', LOOP)] }) }),
    async prepare(c) {
      await c.runUntil('app running', running('app'));
      const pod = this.pod(c);
      (pod.spec.containers as any[])[0].image = BUSYBOX_IMAGE_2;
      c.writePod(pod);
    },
    steps: ['kill-container app', 'start-container app'],
  },
  {
    name: 'init-failed',
    pod: (c) => ({
      spec: spec(c, { initContainers: [container('init', until('init', 1))], containers: [container('app', LOOP)] }),
    }),
    async prepare(c) {
      await c.runUntil('init running', running('init'));
      await c.release('init', 'init');
    },
    steps: ['start-init-container init'],
  },
  {
    name: 'init-failed-never',
    pod: (c) => ({
      spec: spec(c, {
        restartPolicy: 'Never',
        initContainers: [container('init', until('init', 1))],
        containers: [container('app', LOOP)],
      }),
    }),
    async prepare(c) {
      await c.runUntil('init running', running('init'));
      await c.release('init', 'init');
    },
    steps: ['kill-pod'],
  },
  {
    name: 'sidecar-new-pod',
    pod: (c) => ({
      spec: spec(c, {
        initContainers: [container('sidecar', LOOP, { restartPolicy: 'Always' })],
        containers: [container('app', LOOP)],
      }),
    }),
    prepare: async () => {},
    steps: ['create-sandbox attempt 0', 'start-init-container sidecar'],
  },
  {
    name: 'sidecar-exited',
    pod: (c) => ({
      spec: spec(c, {
        initContainers: [container('sidecar', until('sidecar', 1), { restartPolicy: 'Always' })],
        containers: [container('app', LOOP)],
      }),
    }),
    async prepare(c) {
      await c.runUntil('app running', running('app'));
      await c.release('sidecar', 'sidecar');
    },
    steps: ['start-init-container sidecar'],
  },
  {
    name: 'restart-rule',
    pod: (c) => {
      const rules = [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }];
      return {
        spec: spec(c, {
          restartPolicy: 'Never',
          containers: [
            container('retry', until('retry', 42), { restartPolicy: 'Never', restartPolicyRules: rules }),
            container('done', until('done', 1), { restartPolicy: 'Never', restartPolicyRules: rules }),
          ],
        }),
      };
    },
    async prepare(c) {
      await c.runUntil('both running', (s) => running('retry')(s) && running('done')(s));
      await c.release('retry', 'retry');
      await c.release('done', 'done');
    },
    steps: ['start-container retry'],
  },
  {
    name: 'restart-all-containers',
    pod: (c) => ({
      spec: spec(c, {
        initContainers: [container('setup', 'exit 0')],
        containers: [
          container('trigger', until('trigger', 7), {
            restartPolicy: 'Never',
            restartPolicyRules: [{ action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [7] } }],
          }),
          container('app', LOOP),
        ],
      }),
    }),
    async prepare(c) {
      await c.runUntil('both running', (s) => running('trigger')(s) && running('app')(s));
      await c.release('trigger', 'trigger');
    },
    steps: ['reset-container app', 'reset-container setup', 'reset-container trigger'],
  },
  {
    name: 'container-stopped',
    pod: (c) => ({ spec: spec(c, { containers: [container('app', LOOP), container('side', LOOP)] }) }),
    async prepare(c) {
      await c.runUntil('both running', (s) => running('app')(s) && running('side')(s));
      const app = c.state().containers.find((x) => x.name === 'app')!;
      const r = spawnSync(crictl, ['-r', c.node.endpoint, 'stop', app.id], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    },
    steps: ['start-container app'],
  },
  {
    name: 'liveness-failed',
    pod: (c) => ({
      metadata: { uid: UID(9) },
      spec: spec(c, {
        containers: [
          container('app', LOOP, {
            livenessProbe: {
              exec: { command: ['test', '-f', '/ctl/live'] },
              periodSeconds: 1,
              failureThreshold: 1,
            },
          }),
        ],
      }),
    }),
    async prepare(c) {
      fs.writeFileSync(path.join(c.node.ctl, 'live'), '');
      await c.runUntil('app running', running('app'));
      fs.rmSync(path.join(c.node.ctl, 'live'));
    },
    planArgs: ['--liveness-failed', 'app'],
    planMirror: true,
    steps: ['kill-container app', 'start-container app'],
    firstActing: true,
  },
  {
    name: 'never-failed',
    pod: (c) => ({ spec: spec(c, { restartPolicy: 'Never', containers: [container('app', until('app', 1))] }) }),
    async prepare(c) {
      await c.runUntil('app running', running('app'));
      await c.release('app', 'app');
    },
    steps: ['kill-pod'],
  },
  {
    name: 'onfailure-two',
    pod: (c) => ({
      spec: spec(c, {
        restartPolicy: 'OnFailure',
        containers: [container('ok', until('ok', 0)), container('bad', until('bad', 1)), container('on', LOOP)],
      }),
    }),
    async prepare(c) {
      await c.runUntil('all running', (s) => running('ok')(s) && running('bad')(s) && running('on')(s));
      await c.release('ok', 'ok');
      await c.release('bad', 'bad');
    },
    steps: ['start-container bad'],
  },
  {
    name: 'sandbox-stopped',
    pod: (c) => ({ spec: spec(c, { containers: [container('app', LOOP)] }) }),
    async prepare(c) {
      await c.runUntil('app running', running('app'));
      const sb = c.state().sandboxes[0];
      const r = spawnSync(crictl, ['-r', c.node.endpoint, 'stopp', sb.id], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    },
    // kill-pod: kubelet stops the stopped sandbox again (StopPodSandbox is idempotent: CRI shows no change)
    steps: ['kill-pod', 'create-sandbox attempt 1', 'start-container app'],
  },
  {
    name: 'resize-new-uid',
    pod: (c) => ({
      spec: spec(c, { containers: [container('app', LOOP, { resources: resources('200m', '64Mi') })] }),
    }),
    async prepare(c) {
      await c.runUntil('app running', running('app'));
      const pod = this.pod(c);
      (pod.spec.containers as any[])[0].resources = resources('300m', '64Mi');
      c.writePod(pod);
    },
    steps: ['create-sandbox attempt 0', 'start-container app'],
  },
  {
    name: 'resize-same-uid',
    pod: (c) => ({
      metadata: { uid: UID(15) },
      spec: spec(c, { containers: [container('app', LOOP, { resources: resources('200m', '64Mi') })] }),
    }),
    async prepare(c) {
      await c.runUntil('app running', running('app'));
      const pod = this.pod(c);
      (pod.spec.containers as any[])[0].resources = resources('300m', '64Mi');
      c.writePod(pod);
    },
    qos: true,
    firstActing: true,
    // kubelet 1.37 writes the pod-level resources around the container update (UpdatePodSandboxResources,
    // not visible through CRI's lists and statuses)
    steps: ['update-pod-sandbox-resources', 'update-pod-sandbox-resources', 'update-container-resources app'],
  },
  {
    name: 'env-changed',
    pod: (c) => ({
      metadata: { uid: UID(13) },
      spec: spec(c, { containers: [container('app', LOOP, { env: [{ name: 'GREETING', value: 'one' }] })] }),
    }),
    async prepare(c) {
      await c.runUntil('app running', running('app'));
      const pod = this.pod(c);
      (pod.spec.containers as any[])[0].env = [{ name: 'GREETING', value: 'two' }];
      c.writePod(pod);
    },
    // since 1.31 kubelet's container hash covers only the name and the image (not env)
    steps: [],
  },
];

before(async () => {
  if (!fs.existsSync(KUBELET))
    throw new Error(`${KUBELET} does not exist: run npm run anchors:kubelet (or set KUBELET)`);
  crictl = crictlBinary();
  devicePluginSockExisted = fs.existsSync(DEVICE_PLUGIN_SOCK);
  devicePluginDirExisted = fs.existsSync(path.dirname(DEVICE_PLUGIN_SOCK));
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-real-kubelet-'));
});

after(async () => {
  for (const pid of pidsWith(`${dir}/`)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await lab?.stop();
  if (cgroupRoot) removeCgroupTree(cgroupRoot);
  if (!dir) return;
  // kubelet's legacy log links (/var/log/containers/<pod>_<ns>_<container>-<id>.log) point into our pod log dirs
  for (const f of fs.existsSync('/var/log/containers') ? fs.readdirSync('/var/log/containers') : []) {
    const p = path.join('/var/log/containers', f);
    try {
      if (fs.readlinkSync(p).startsWith(`${dir}/`)) fs.rmSync(p);
    } catch {
      /* not a link */
    }
  }
  // kubelet's device plugin socket has a fixed path outside --root-dir
  if (!devicePluginSockExisted) fs.rmSync(DEVICE_PLUGIN_SOCK, { force: true });
  if (!devicePluginDirExisted) fs.rmSync(path.dirname(DEVICE_PLUGIN_SOCK), { recursive: true, force: true });
  const mounts = fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((m): m is string => !!m && m.startsWith(`${dir}/`))
    .reverse();
  for (const m of mounts) spawnSync('umount', ['-l', m]);
  fs.rmSync(dir, { recursive: true, force: true });
});

function stepText(s: any): string {
  if (s.action === 'create-sandbox') return `create-sandbox attempt ${s.attempt}`;
  if (s.action === 'kill-pod' || s.action === 'update-pod-sandbox-resources') return s.action;
  return `${s.action} ${s.target}`;
}

const results: string[] = [];

async function runCase(c: Case): Promise<void> {
  const caseDir = path.join(dir, c.name);
  const node: KubeletNode = {
    dir: caseDir,
    manifests: path.join(caseDir, 'manifests'),
    root: path.join(caseDir, 'root'),
    podLogs: path.join(caseDir, 'pod-logs'),
    ctl: path.join(caseDir, 'ctl'),
    endpoint: lab.endpoint,
    gates: c.gates ?? {},
  };
  if (c.qos) {
    cgroupRoot ??= makeCgroupRoot(`syncpod-real-kubelet-${lab.id}`);
    node.cgroupRoot = cgroupRoot;
  }
  for (const d of [node.manifests, node.root, node.podLogs, node.ctl]) fs.mkdirSync(d, { recursive: true });
  const ns = `rk-${c.name}`;
  const podName = `${c.name}-${NODE_NAME}`;
  let runs = 0;
  let current: KubeletRun | undefined;
  /** The pod file as the last kubelet run read it (for its mirror pod). */
  let written: any;
  let ran: any;
  const state = (): CriState => {
    const s = criState(crictl, lab.endpoint, ns);
    return { sandboxes: s.sandboxes.filter((x) => x.namespace === ns), containers: s.containers };
  };
  const ctx: Ctx = {
    node,
    ns,
    podName,
    writePod(pod: any) {
      const full = {
        apiVersion: 'v1',
        kind: 'Pod',
        ...pod,
        metadata: { name: c.name, namespace: ns, ...pod.metadata },
      };
      fs.writeFileSync(path.join(node.manifests, `${c.name}.json`), JSON.stringify(full, null, 2));
      written = full;
    },
    async runUntil(what, pred) {
      current = new KubeletRun(node, runs++);
      current.start();
      ran = written;
      try {
        const deadline = Date.now() + 90_000;
        for (;;) {
          if (!current.running)
            throw new Error(`${c.name}: kubelet exited while waiting for ${what}: ${current.tail()}`);
          if (pred(state())) break;
          if (Date.now() > deadline) throw new Error(`${c.name}: no ${what} within 90s: ${current.tail()}`);
          await sleep(250);
        }
      } finally {
        await current.stop();
      }
    },
    async release(file, name) {
      fs.writeFileSync(path.join(node.ctl, file), '');
      const deadline = Date.now() + 20_000;
      while (!exitedTimes(name, 1)(state())) {
        if (Date.now() > deadline) throw new Error(`${c.name}: ${name} did not exit after /ctl/${file}`);
        await sleep(100);
      }
      // a restarted instance waits again (else it exits at once and a later sync's work mixes in)
      fs.rmSync(path.join(node.ctl, file));
    },
    state,
  };
  try {
    ctx.writePod(c.pod(ctx));
    await c.prepare(ctx);
    const before = state();
    // What `kubectl get pods -o yaml` shows of the static pod kubelet ran: its mirror pod, carrying
    // kubelet's uid (the standalone kubelet has no API server; the uid is read from its CRI labels).
    const mirrorArgs: string[] = [];
    const lastSandbox = [...before.sandboxes].sort((a, b) => b.createdAt - a.createdAt)[0];
    if (ran && lastSandbox) {
      const uid = lastSandbox.uid;
      const mirror = {
        ...ran,
        metadata: {
          ...ran.metadata,
          name: podName,
          uid,
          annotations: {
            'kubernetes.io/config.mirror': uid,
            'kubernetes.io/config.hash': uid,
            'kubernetes.io/config.source': 'file',
          },
        },
        spec: { ...ran.spec, nodeName: NODE_NAME, tolerations: [{ operator: 'Exists', effect: 'NoExecute' }] },
      };
      fs.writeFileSync(path.join(caseDir, 'mirror.json'), JSON.stringify(mirror, null, 2));
      mirrorArgs.push(path.join(caseDir, 'mirror.json'));
    }

    // the plan, with no kubelet running (so no Pods API socket: the uid is the file's, the mirror pod's
    // or syncpod's own)
    const nodeFlags = [
      '--node-name',
      NODE_NAME,
      '--kubelet-version',
      '1.37',
      ...(node.cgroupRoot ? ['--cgroups-per-qos=true', '--cgroup-root', node.cgroupRoot] : ['--cgroups-per-qos=false']),
      '--cgroup-driver',
      'cgroupfs',
      '--pod-logs-root',
      node.podLogs,
      '--pod-dir-root',
      node.root,
      ...Object.entries(node.gates).flatMap(([k, v]) => ['--feature-gates', `${k}=${v}`]),
    ];
    const args = c.planMirror
      ? ['plan', '-o', 'json', ...nodeFlags, ...(c.planArgs ?? []), ...mirrorArgs]
      : [
          'plan',
          '--node',
          '-o',
          'json',
          '--static-pod-path',
          node.manifests,
          '--pods-api-socket',
          'none',
          ...nodeFlags,
          ...(c.planArgs ?? []),
          ...mirrorArgs,
        ];
    if (c.planMirror) assert.equal(mirrorArgs.length, 1, `${c.name}: no mirror pod to plan`);
    const r = await syncpod(args, { env: { ...lab.env }, timeoutMs: 120_000 });
    fs.writeFileSync(path.join(caseDir, 'plan.json'), r.stdout);
    assert.ok(r.code === 0 || r.code === 2, `plan exited ${r.code}: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    const plans: any[] = Array.isArray(out) ? out : (out.plans ?? [out]);
    const plan = plans.find((p: any) => p.pod.name === podName);
    assert.ok(plan, `no plan for ${podName}: ${r.stdout.slice(0, 500)}`);
    const oldUids = new Set(before.sandboxes.map((s) => s.uid));
    const uidName = (u: string): string => (oldUids.has(u) ? u.slice(0, 8) : 'new');
    const expected = planEffects(plan, before, uidName);

    // kubelet acts
    current = new KubeletRun(node, runs++);
    current.start();
    let until: number | undefined;
    let acting: string | undefined;
    let afterState = before;
    /** Microseconds: no effect had been seen in a poll that began then. */
    let cleanUntil = Date.now() * 1000;
    try {
      const deadline = Date.now() + 90_000;
      for (;;) {
        if (!current.running) throw new Error(`${c.name}: kubelet exited: ${current.tail()}`);
        const polledAt = Date.now() * 1000;
        afterState = state();
        const marks = syncMarks(current.text(), `${ns}/${podName}`).filter((m) => m.exit !== undefined);
        if (c.firstActing) {
          // the first sync that acted: the one whose time holds the first creation or exit, or for
          // a change CRI keeps no time of (resources), the first that ended after the last poll that
          // saw nothing yet
          const times = timedEffectTimes(before, afterState, podName);
          if (times.length === 0 && anyEffect(before, afterState, podName)) times.push(cleanUntil);
          const m = times.length ? marks.find((x) => x.exit! >= times[0]) : undefined;
          if (m) {
            until = m.exit;
            acting = `${m.kind} ${m.actions ?? ''}`;
            break;
          }
          if (times.length === 0) cleanUntil = polledAt;
        } else {
          // kubelet's first sync of the pod: its first SyncPod, and when that found the pod terminal,
          // the SyncTerminatingPod that follows it
          const sp = marks.find((m) => m.kind === 'SyncPod');
          const term = sp?.terminal
            ? marks.find((m) => m.kind === 'SyncTerminatingPod' && m.uid === sp.uid && m.enter >= sp.exit!)
            : undefined;
          if (sp && (!sp.terminal || term)) {
            until = (term ?? sp).exit;
            acting = `${sp.actions ?? ''}${term ? ' then SyncTerminatingPod' : ''}`;
            break;
          }
        }
        if (Date.now() > deadline)
          throw new Error(`${c.name}: kubelet did not sync the pod within 90s: ${current.tail()}`);
        await sleep(200);
      }
      await sleep(300);
      afterState = state();
      // a replaced pod is terminated by a worker of its own: wait until it is (no container running,
      // its sandboxes stopped), at most 20 s
      if (plan.replaces) {
        const old = plan.replaces.uid;
        const settled = (s: CriState): boolean =>
          !s.containers.some((x) => x.uid === old && x.state === 'CONTAINER_RUNNING') &&
          !s.sandboxes.some((x) => x.uid === old && x.state === 'SANDBOX_READY');
        for (let i = 0; i < 100 && !settled(afterState); i++) {
          await sleep(200);
          afterState = state();
        }
      }
    } finally {
      await current.stop();
    }
    const observed: Effects = effectsBetween(
      before,
      afterState,
      podName,
      until!,
      uidName,
      new Set(plan.replaces ? [plan.replaces.uid] : []),
    );
    const line = `${c.name}: plan ${JSON.stringify(plan.steps.map(stepText))}; kubelet ${JSON.stringify(observed)}`;
    results.push(line);
    const was = before.containers.map((x) => `${x.name} ${x.id.slice(0, 12)} ${x.state} attempt ${x.attempt}`);
    assert.deepEqual(
      observed,
      expected,
      `${c.name}: what kubelet did (its sync: ${acting}; containers before: ${was.join(', ')})`,
    );
    // the state this case is built for was reached (checked after the comparison, which is the point)
    assert.deepEqual(plan.steps.map(stepText), c.steps, `${c.name}: the plan`);
  } finally {
    if (current?.running) await current.stop();
    // REAL_KUBELET_LOGS=DIR keeps each case's kubelet logs, files and plan there
    if (process.env.REAL_KUBELET_LOGS)
      fs.cpSync(caseDir, path.join(process.env.REAL_KUBELET_LOGS, c.name), {
        recursive: true,
        filter: (src) => !src.startsWith(node.root),
      });
    // the case's pods go, so the next case's kubelet finds none of them
    for (const sb of state().sandboxes) {
      spawnSync(crictl, ['-r', lab.endpoint, 'stopp', sb.id]);
      spawnSync(crictl, ['-r', lab.endpoint, 'rmp', '-f', sb.id]);
    }
  }
}

describe('syncpod plan against kubelet v1.37.2 itself, standalone, on containerd 2.x', () => {
  const only = process.env.REAL_KUBELET_CASES?.split(',');
  for (const c of CASES) {
    if (only && !only.includes(c.name)) continue;
    test(c.name, { timeout: 300_000 }, () => runCase(c));
  }
  after(() => console.log(results.join('\n')));
});
