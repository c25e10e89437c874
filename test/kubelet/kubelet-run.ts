// The pieces of the real-kubelet comparison (npm run test:kubelet): a standalone kubelet v1.37.2 on a
// lab's containerd, what it did as seen through CRI (crictl 1.37, not syncpod's own client), and
// syncpod's plan steps turned into the same vocabulary.
//
// A kubelet here is standalone: static pods from a directory of its own, no API server (no
// --kubeconfig), its own --root-dir and podLogsDir, no server ports (enableServer false, healthz and
// read-only port 0), no QoS cgroups unless a case asks for them (then under a cgroupRoot of its own),
// the cgroupfs driver (the lab's containerd 2.x config has no SystemdCgroup), failSwapOn and
// failCgroupV1 off (this machine has cgroup v1). It runs in a PID namespace of its own, so no other
// syncpod run on the machine takes it for its node's kubelet. Dead containers are kept
// (--maximum-dead-containers-per-container, --minimum-container-ttl-duration): the comparison needs
// them, and removing them is garbage collection, not SyncPod.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const KUBELET =
  process.env.KUBELET || path.join(__dirname, '..', '..', '.anchors', 'kubelet-v1.37.2', 'kubelet');
export const NODE_NAME = 'rk-node';

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface KubeletNode {
  /** This case's directory: manifests/, root/, pod-logs/, ctl/, kubelet-N.log. */
  dir: string;
  manifests: string;
  root: string;
  podLogs: string;
  /** A host directory the pods mount at /ctl; a file there tells a waiting container to exit. */
  ctl: string;
  endpoint: string;
  gates: Record<string, boolean>;
  /** cgroupsPerQOS with this cgroupRoot (cgroupfs form); undefined: no QoS cgroups. */
  cgroupRoot?: string;
}

export function kubeletConfig(n: KubeletNode): string {
  const gates = Object.entries(n.gates);
  return [
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'kind: KubeletConfiguration',
    n.cgroupRoot ? `cgroupsPerQOS: true\ncgroupRoot: ${n.cgroupRoot}` : 'cgroupsPerQOS: false',
    'enforceNodeAllocatable: []',
    'readOnlyPort: 0',
    'healthzPort: 0',
    'enableServer: false',
    'failSwapOn: false',
    'failCgroupV1: false',
    'cgroupDriver: cgroupfs',
    `containerRuntimeEndpoint: ${n.endpoint}`,
    `staticPodPath: ${n.manifests}`,
    'fileCheckFrequency: 1s',
    `podLogsDir: ${n.podLogs}`,
    'authentication:\n  webhook:\n    enabled: false\n  anonymous:\n    enabled: true',
    'authorization:\n  mode: AlwaysAllow',
    ...(gates.length ? ['featureGates:', ...gates.map(([k, v]) => `  ${k}: ${v}`)] : []),
    '',
  ].join('\n');
}

/** One run of the real kubelet (start() to stop()), logging at -v=4 into its own file. */
export class KubeletRun {
  readonly log: string;
  private child: ChildProcess | undefined;
  private exited = false;

  constructor(
    readonly node: KubeletNode,
    index: number,
  ) {
    this.log = path.join(node.dir, `kubelet-${index}.log`);
  }

  start(): void {
    fs.writeFileSync(path.join(this.node.dir, 'config.yaml'), kubeletConfig(this.node));
    const fd = fs.openSync(this.log, 'a');
    // --kill-child: SIGKILL to unshare takes the kubelet down with it (SIGTERM to unshare does not).
    this.child = spawn(
      'unshare',
      [
        '--pid',
        '--fork',
        '--mount-proc',
        '--kill-child',
        KUBELET,
        '--config',
        path.join(this.node.dir, 'config.yaml'),
        `--root-dir=${this.node.root}`,
        `--hostname-override=${NODE_NAME}`,
        '--maximum-dead-containers-per-container=100',
        '--minimum-container-ttl-duration=2h',
        '-v=4',
      ],
      { cwd: this.node.dir, stdio: ['ignore', fd, fd] },
    );
    fs.closeSync(fd);
    this.child.on('exit', () => {
      this.exited = true;
    });
  }

  get running(): boolean {
    return !!this.child && !this.exited;
  }

  text(): string {
    try {
      return fs.readFileSync(this.log, 'utf8');
    } catch {
      return '';
    }
  }

  /** The kubelet's last lines (for messages). */
  tail(n = 5): string {
    return this.text().trim().split('\n').slice(-n).join(' | ');
  }

  async stop(): Promise<void> {
    if (!this.child || this.exited) return;
    this.child.kill('SIGKILL');
    for (let i = 0; i < 100 && !this.exited; i++) await sleep(50);
    // the kubelet itself (unshare's child) is gone once no process names this node's config
    for (let i = 0; i < 100 && pidsWith(path.join(this.node.dir, 'config.yaml')).length; i++) await sleep(50);
  }
}

/** Processes whose command line contains `needle`. */
export function pidsWith(needle: string): number[] {
  const out: number[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(needle)) out.push(Number(e));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** klog's "I1127 17:53:51.182968" as microseconds since the epoch (this machine's clock is UTC). */
function klogTime(line: string): number | undefined {
  const m = /^[IWEF](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6})/.exec(line);
  if (!m) return undefined;
  const year = new Date().getUTCFullYear();
  const ms = Date.UTC(year, Number(m[1]) - 1, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
  return ms * 1000 + Number(m[6]);
}

/** RFC 3339 with nanoseconds (CRI via crictl) as microseconds since the epoch. */
export function rfc3339Micros(s: string | undefined): number | undefined {
  if (!s || s.startsWith('0001-') || s.startsWith('1970-01-01T00:00:00Z')) return undefined;
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(s);
  if (!m) return undefined;
  const frac = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  return Date.parse(`${m[1]}Z`) * 1000 + Number(frac);
}

export interface SyncMark {
  kind: 'SyncPod' | 'SyncTerminatingPod';
  uid: string;
  enter: number;
  exit?: number;
  /** SyncPod found the pod terminal (SyncTerminatingPod follows). */
  terminal?: boolean;
  /** kubelet's own computePodActions line for that sync (for messages only). */
  actions?: string;
}

/** The syncs kubelet logged for pod `ns/name` (any uid), in order. */
export function syncMarks(logText: string, podRef: string): SyncMark[] {
  const marks: SyncMark[] = [];
  const open = new Map<string, SyncMark>();
  const podField = `pod="${podRef}"`;
  for (const line of logText.split('\n')) {
    if (!line.includes(podField)) continue;
    const m = /"(SyncPod|SyncTerminatingPod) (enter|exit)".* podUID="([^"]+)"/.exec(line);
    const t = klogTime(line);
    if (m && t !== undefined) {
      const kind = m[1] as SyncMark['kind'];
      const key = `${kind}/${m[3]}`;
      if (m[2] === 'enter') {
        const mark: SyncMark = { kind, uid: m[3], enter: t };
        marks.push(mark);
        open.set(key, mark);
      } else {
        const mark = open.get(key);
        if (mark) {
          mark.exit = t;
          mark.terminal = / isTerminal=true/.test(line);
        }
        open.delete(key);
      }
      continue;
    }
    const a = /"computePodActions got for pod" podActions="([^"]*)"/.exec(line);
    if (a) {
      const last = [...marks].reverse().find((x) => x.kind === 'SyncPod');
      if (last && last.exit === undefined) last.actions = a[1];
    }
  }
  return marks;
}

// ---------------------------------------------------------------------------------------------
// CRI through crictl

export interface CriSandbox {
  id: string;
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
  state: string;
  createdAt: number;
}

export interface CriContainer {
  id: string;
  sandboxId: string;
  name: string;
  uid: string;
  podName: string;
  attempt: number;
  state: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode: number;
  restartCount: string;
  /** The resources the runtime reports (cpuShares/cpuQuota/memoryLimitInBytes), as one string. */
  resources: string;
}

export interface CriState {
  sandboxes: CriSandbox[];
  containers: CriContainer[];
}

export function crictlJson(crictl: string, endpoint: string, args: string[]): any {
  const r = spawnSync(crictl, ['-r', endpoint, '-i', endpoint, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`crictl ${args.join(' ')}: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout);
}

/** Every sandbox and container of the pods in `namespace`, as crictl 1.37 reads them. */
export function criState(crictl: string, endpoint: string, namespace: string): CriState {
  const pods = crictlJson(crictl, endpoint, ['pods', '--namespace', namespace, '-o', 'json']).items ?? [];
  const sandboxes: CriSandbox[] = pods.map((p: any) => ({
    id: p.id,
    name: p.metadata.name,
    namespace: p.metadata.namespace,
    uid: p.metadata.uid,
    attempt: Number(p.metadata.attempt ?? 0),
    state: p.state,
    createdAt: Math.floor(Number(p.createdAt) / 1000),
  }));
  const ids = new Set(sandboxes.map((s) => s.id));
  const list = (crictlJson(crictl, endpoint, ['ps', '-a', '-o', 'json']).containers ?? []).filter((c: any) =>
    ids.has(c.podSandboxId),
  );
  const containers: CriContainer[] = list.flatMap((c: any) => {
    let st: any;
    try {
      st = crictlJson(crictl, endpoint, ['inspect', '-o', 'json', c.id]).status;
    } catch (err) {
      // removed between the list and its status: gone
      if (/NotFound/.test((err as Error).message)) return [];
      throw err;
    }
    const lin = st.resources?.linux ?? {};
    const container: CriContainer = {
      id: c.id,
      sandboxId: c.podSandboxId,
      name: c.metadata.name,
      uid: c.labels?.['io.kubernetes.pod.uid'] ?? '',
      podName: c.labels?.['io.kubernetes.pod.name'] ?? '',
      attempt: Number(c.metadata.attempt ?? 0),
      state: st.state,
      createdAt: rfc3339Micros(st.createdAt) ?? 0,
      startedAt: rfc3339Micros(st.startedAt),
      finishedAt: rfc3339Micros(st.finishedAt),
      exitCode: Number(st.exitCode ?? 0),
      restartCount: st.annotations?.['io.kubernetes.container.restartCount'] ?? '',
      resources: `cpuShares=${lin.cpuShares ?? ''} cpuQuota=${lin.cpuQuota ?? ''} memory=${lin.memoryLimitInBytes ?? ''}`,
    };
    return [container];
  });
  return { sandboxes, containers };
}

// ---------------------------------------------------------------------------------------------
// The common vocabulary: what happened to the runtime's objects.

/**
 * What a sync did, as CRI shows it. `stopped`/`removed`/`updated` are sets (sorted); `created` is in
 * creation order (kubelet starts one thing after another). Containers are named by their name and the
 * first 12 hex digits of their id; sandboxes by `sandbox` and id, or by pod name, uid and attempt
 * when created.
 */
export interface Effects {
  stopped: string[];
  removed: string[];
  updated: string[];
  created: string[];
}

const short = (id: string): string => id.slice(0, 12);

/**
 * The effects between `before` and `after` for pod `podName` (any uid): containers created
 * (and whether the runtime saw them start), running containers now exited, sandboxes now not ready,
 * objects gone, resources changed. `until` (microseconds) leaves out what was created or finished
 * later (a following sync); objects without a time (a sandbox's stop, a removal) always count.
 * `uidName` names uids in the output (e.g. the new uid as "new").
 */
export function effectsBetween(
  before: CriState,
  after: CriState,
  podName: string,
  until: number,
  uidName: (uid: string) => string,
  /** Pods (uids) whose effects count whenever they happened: a replaced pod, terminated by its own worker. */
  unbounded: Set<string> = new Set(),
): Effects {
  const e: Effects = { stopped: [], removed: [], updated: [], created: [] };
  const created: Array<{ at: number; text: string }> = [];
  const sbBefore = new Map(before.sandboxes.filter((s) => s.name === podName).map((s) => [s.id, s]));
  const sbAfter = new Map(after.sandboxes.filter((s) => s.name === podName).map((s) => [s.id, s]));
  for (const [id, s] of sbBefore) {
    const now = sbAfter.get(id);
    if (!now) e.removed.push(`sandbox ${short(id)}`);
    else if (s.state === 'SANDBOX_READY' && now.state !== 'SANDBOX_READY') e.stopped.push(`sandbox ${short(id)}`);
  }
  for (const [id, s] of sbAfter) {
    if (sbBefore.has(id) || s.createdAt > until) continue;
    created.push({ at: s.createdAt, text: `create-sandbox uid ${uidName(s.uid)} attempt ${s.attempt}` });
  }
  const cBefore = new Map(before.containers.filter((c) => c.podName === podName).map((c) => [c.id, c]));
  const cAfter = new Map(after.containers.filter((c) => c.podName === podName).map((c) => [c.id, c]));
  for (const [id, c] of cBefore) {
    const now = cAfter.get(id);
    if (!now) {
      // a running container that is gone was stopped first; a replaced pod's removal is not compared
      if (c.state === 'CONTAINER_RUNNING') e.stopped.push(`${c.name} ${short(id)}`);
      if (!unbounded.has(c.uid)) e.removed.push(`${c.name} ${short(id)}`);
      continue;
    }
    const bound = unbounded.has(c.uid) ? Number.MAX_SAFE_INTEGER : until;
    if (c.state === 'CONTAINER_RUNNING' && now.state !== 'CONTAINER_RUNNING' && (now.finishedAt ?? 0) <= bound)
      e.stopped.push(`${c.name} ${short(id)}`);
    if (c.resources !== now.resources) e.updated.push(`${c.name} ${short(id)}`);
  }
  for (const [id, c] of cAfter) {
    if (cBefore.has(id) || c.createdAt > until) continue;
    const started = c.state !== 'CONTAINER_CREATED' && c.startedAt !== undefined;
    created.push({ at: c.createdAt, text: `${started ? 'start' : 'create (not started)'} ${c.name}` });
  }
  created.sort((a, b) => a.at - b.at);
  e.created = created.map((c) => c.text);
  e.stopped.sort();
  e.removed.sort();
  e.updated.sort();
  return e;
}

/** The latest time at which something timed happened between the states (creations, exits), or undefined. */
export function timedEffectTimes(before: CriState, after: CriState, podName: string): number[] {
  const times: number[] = [];
  const sb = new Set(before.sandboxes.map((s) => s.id));
  for (const s of after.sandboxes) if (s.name === podName && !sb.has(s.id)) times.push(s.createdAt);
  const cb = new Map(before.containers.map((c) => [c.id, c]));
  for (const c of after.containers) {
    if (c.podName !== podName) continue;
    const old = cb.get(c.id);
    if (!old) times.push(c.createdAt);
    else if (old.state === 'CONTAINER_RUNNING' && c.state !== 'CONTAINER_RUNNING' && c.finishedAt)
      times.push(c.finishedAt);
  }
  return times.sort((a, b) => a - b);
}

/** Same as effectsBetween, but untimed: is anything different at all (for the "nothing happens" wait)? */
export function anyEffect(before: CriState, after: CriState, podName: string): boolean {
  const e = effectsBetween(before, after, podName, Number.MAX_SAFE_INTEGER, (u) => u);
  return e.stopped.length + e.removed.length + e.updated.length + e.created.length > 0;
}

/**
 * syncpod's plan for one pod (a `plan --node -o json` entry) as effects on `before`: kill-pod stops its
 * running containers and ready sandboxes; kill-container stops one; remove-init-container and
 * reset-container remove one (reset stops it first when running); create-sandbox creates one with
 * the plan's attempt; start-* creates and starts a container; update-container-resources changes a
 * container's resources. A replaced static pod's old uid (`replaces`) is killed as kill-pod is.
 */
export function planEffects(plan: any, before: CriState, uidName: (uid: string) => string): Effects {
  const e: Effects = { stopped: [], removed: [], updated: [], created: [] };
  const byId = new Map(before.containers.map((c) => [c.id, c]));
  const name = (id: string): string => `${byId.get(id)?.name ?? '?'} ${short(id)}`;
  const killPodOf = (uid: string): void => {
    for (const c of before.containers) if (c.uid === uid && c.state === 'CONTAINER_RUNNING') e.stopped.push(name(c.id));
    for (const s of before.sandboxes)
      if (s.uid === uid && s.state === 'SANDBOX_READY') e.stopped.push(`sandbox ${short(s.id)}`);
  };
  // The replaced pod: "terminated first, then removed" — its running containers and ready sandboxes are
  // stopped; the removal comes later and at no fixed time (kubelet's cleanup of a terminated pod's dead
  // containers, garbage collection): not compared, on either side.
  for (const r of plan.replaces?.steps ?? []) {
    if (r.action !== 'kill-pod') throw new Error(`replaced pod step ${r.action}: not translated`);
    killPodOf(plan.replaces.uid);
  }
  for (const s of plan.steps as any[]) {
    switch (s.action) {
      case 'kill-pod':
        for (const id of s.containerIds ?? []) e.stopped.push(name(id));
        for (const id of s.sandboxIds ?? [])
          if (before.sandboxes.find((b) => b.id === id)?.state === 'SANDBOX_READY')
            e.stopped.push(`sandbox ${short(id)}`);
        break;
      case 'kill-container':
        e.stopped.push(name(s.containerId));
        break;
      case 'reset-container':
        if (s.kill) e.stopped.push(name(s.containerId));
        e.removed.push(name(s.containerId));
        break;
      case 'remove-init-container':
        e.removed.push(name(s.containerId));
        break;
      case 'create-sandbox':
        e.created.push(`create-sandbox uid ${uidName(plan.pod.uid)} attempt ${s.attempt}`);
        break;
      case 'start-init-container':
      case 'start-container':
      case 'start-ephemeral-container':
        e.created.push(`start ${s.target}`);
        break;
      case 'update-container-resources':
        e.updated.push(name(s.containerId));
        break;
      case 'update-pod-sandbox-resources':
        // UpdatePodSandboxResources leaves nothing the CRI lists or reports (no sandbox resources in
        // PodSandboxStatus): not observable here
        break;
      default:
        throw new Error(`plan step ${s.action}: not translated`);
    }
  }
  e.stopped = [...new Set(e.stopped)].sort();
  e.removed = [...new Set(e.removed)].sort();
  e.updated.sort();
  return e;
}
