// Seeded random scenarios: valid pods (restart policies, container restart rules and
// RestartAllContainers, init containers and sidecars, ephemeral containers, probes, resources and
// resize policies, Guaranteed pods, pod-level resources, overhead, pull policies) against runtime states a node can hold (no sandbox, one to three sandboxes in any
// state, attempts not always growing with age, containers in every state with exit codes, current or stale hashes, resources as set or
// changed), with prober results and feature gates on and off. The same seed gives the same list.
import type { Scenario, ScenarioContainer, ScenarioSandbox } from './scenario';

type Rng = () => number;

function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const chance = (r: Rng, p: number) => r() < p;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const IMAGES = ['busybox:1.36', 'nginx:1.25', 'registry.k8s.io/pause:3.10', 'alpine:3.20', 'envoy:v1.30'];
const CPU = ['100m', '250m', '500m', '1', '2'];
const MEMORY = ['64Mi', '128Mi', '256Mi', '1Gi'];

/** Gates whose value the scenarios vary (each where the release has it and does not lock it). */
const VARIED_GATES = [
  'ContainerRestartRules',
  'RestartAllContainersOnContainerExits',
  'InPlacePodVerticalScalingInitContainers',
  'PodLevelResources',
  'InPlacePodLevelResourcesVerticalScaling',
  'ChangeContainerStatusOnKubeletRestart',
];

function resources(r: Rng): Record<string, any> | undefined {
  if (chance(r, 0.4)) return undefined;
  const res: Record<string, any> = {};
  if (chance(r, 0.7)) res.requests = { cpu: pick(r, CPU), memory: pick(r, MEMORY) };
  if (chance(r, 0.5)) {
    const lim: Record<string, string> = {};
    if (chance(r, 0.7)) lim.cpu = res.requests?.cpu && chance(r, 0.6) ? res.requests.cpu : pick(r, ['1', '2', '4']);
    if (chance(r, 0.7))
      lim.memory = res.requests?.memory && chance(r, 0.6) ? res.requests.memory : pick(r, ['1Gi', '2Gi']);
    res.limits = lim;
    // The API server refuses a request above its limit: such a limit is raised to the request.
    if (res.requests?.cpu && lim.cpu && quantityMilli(lim.cpu) < quantityMilli(res.requests.cpu))
      lim.cpu = res.requests.cpu;
    if (res.requests?.memory && lim.memory && quantityBytes(lim.memory) < quantityBytes(res.requests.memory))
      lim.memory = res.requests.memory;
  }
  return res;
}

function quantityMilli(q: string): number {
  return q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000;
}

function quantityBytes(q: string): number {
  const m = /^(\d+)(Mi|Gi)$/.exec(q);
  if (!m) return Number(q);
  return Number(m[1]) * (m[2] === 'Mi' ? 1 << 20 : 1 << 30);
}

/** What the runtime reports for a container created with these resources (kubelet's conversions, 100 ms period). */
function reported(
  res: Record<string, any> | undefined,
  podLimits: Record<string, string> | undefined,
): ScenarioContainer['resources'] {
  // A limit the container lacks is the pod-level one (PodLevelResources).
  const cpuLim = res?.limits?.cpu ?? podLimits?.cpu;
  const cpuReq = res?.requests?.cpu ?? cpuLim;
  const memLim = res?.limits?.memory ?? podLimits?.memory;
  const shares = cpuReq ? Math.max(2, Math.floor((quantityMilli(cpuReq) * 1024) / 1000)) : 2;
  const quota = cpuLim ? Math.max(1000, Math.floor((quantityMilli(cpuLim) * 100000) / 1000)) : 0;
  const mem = memLim ? quantityBytes(memLim) : 0;
  return { cpuShares: shares, cpuQuota: quota, cpuPeriod: 100000, memoryLimitInBytes: mem };
}

function probe(): Record<string, any> {
  return { exec: { command: ['true'] }, periodSeconds: 10 };
}

/** A release's gates as its oracle reports them. */
export type GateSpecs = Record<string, { default: boolean; locked: boolean }>;

/** One seeded scenario for a minor; only gates the release has and does not lock are varied. */
export function randomScenario(minor: string, r: Rng, n: number, seed: number, specs: GateSpecs): Scenario {
  const gates: Record<string, boolean> = {};
  for (const g of VARIED_GATES) if (specs[g] && !specs[g].locked && chance(r, 0.25)) gates[g] = chance(r, 0.5);
  const gateOn = (g: string) => gates[g] ?? specs[g]?.default ?? false;
  const restartPolicy = pick(r, ['Always', 'Always', 'OnFailure', 'Never']);
  const rulesOn = gateOn('ContainerRestartRules');
  const restartAllOn = rulesOn && gateOn('RestartAllContainersOnContainerExits');
  const podLevel = gateOn('PodLevelResources') && chance(r, 0.15);
  const uid = `uid-${seed}-${n}`;
  const initContainers: any[] = [];
  for (let i = 0, k = int(r, 0, 3) - (chance(r, 0.5) ? 1 : 0); i < k; i++) {
    const sidecar = chance(r, 0.45);
    const c: Record<string, any> = { name: sidecar ? `side${i}` : `init${i}`, image: pick(r, IMAGES) };
    if (sidecar) {
      c.restartPolicy = 'Always';
      if (chance(r, 0.3)) c.livenessProbe = probe();
      if (chance(r, 0.2)) c.startupProbe = probe();
    }
    const res = resources(r);
    if (res) c.resources = res;
    if (sidecar && res && chance(r, 0.4))
      c.resizePolicy = [
        { resourceName: pick(r, ['cpu', 'memory']), restartPolicy: pick(r, ['NotRequired', 'RestartContainer']) },
      ];
    initContainers.push(c);
  }
  const containers: any[] = [];
  for (let i = 0, k = int(r, 1, 3); i < k; i++) {
    const c: Record<string, any> = { name: `app${i}`, image: pick(r, IMAGES) };
    if (chance(r, 0.3)) c.imagePullPolicy = pick(r, ['Always', 'IfNotPresent', 'Never']);
    if (chance(r, 0.3)) c.livenessProbe = probe();
    if (chance(r, 0.2)) c.startupProbe = probe();
    const res = resources(r);
    if (res) c.resources = res;
    if (res && chance(r, 0.4))
      c.resizePolicy = [
        { resourceName: pick(r, ['cpu', 'memory']), restartPolicy: pick(r, ['NotRequired', 'RestartContainer']) },
      ];
    if (rulesOn && chance(r, 0.2)) {
      c.restartPolicy = pick(r, ['Never', 'OnFailure', 'Always']);
      const action = restartAllOn && chance(r, 0.4) ? 'RestartAllContainers' : 'Restart';
      c.restartPolicyRules = [{ action, exitCodes: { operator: pick(r, ['In', 'NotIn']), values: [42] } }];
    }
    containers.push(c);
  }
  const pod: Record<string, any> = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `oracle-${n}`, namespace: 'default', uid },
    spec: { restartPolicy, containers, ...(initContainers.length ? { initContainers } : {}) },
  };
  if (chance(r, 0.1)) pod.spec.hostNetwork = true;
  if (podLevel) pod.spec.resources = { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '4', memory: '4Gi' } };
  // A Guaranteed pod: every container's requests equal its limits (its pod cgroup has limits).
  if (!podLevel && chance(r, 0.15))
    for (const c of [...initContainers, ...containers]) {
      const cpu = pick(r, CPU);
      const memory = pick(r, MEMORY);
      c.resources = { requests: { cpu, memory }, limits: { cpu, memory } };
    }
  // Pod overhead (a RuntimeClass's): in the pod cgroup, not in UpdatePodSandboxResources' resources.
  if (chance(r, 0.1)) pod.spec.overhead = { cpu: pick(r, ['100m', '250m']), memory: pick(r, ['64Mi', '120Mi']) };
  // An ephemeral (debug) container.
  if (chance(r, 0.1))
    pod.spec.ephemeralContainers = [{ name: 'debug', image: pick(r, IMAGES), targetContainerName: 'app0' }];

  // The runtime's state.
  const podLimits: Record<string, string> | undefined = podLevel ? pod.spec.resources.limits : undefined;
  const sandboxes: ScenarioSandbox[] = [];
  const crs: ScenarioContainer[] = [];
  const images = IMAGES.filter(() => chance(r, 0.7));
  const liveness: Record<string, 'failure' | 'success'> = {};
  const startup: Record<string, 'failure' | 'success'> = {};
  const nSandboxes = pick(r, [0, 1, 1, 1, 1, 2]);
  for (let i = 0; i < nSandboxes; i++) {
    const newest = i === nSandboxes - 1;
    sandboxes.push({
      id: `sb${i}`,
      // A newer sandbox has a higher attempt, as on a node: kubelet orders a pod's sandboxes by
      // creation time up to 1.34, by attempt alone in 1.35 (a tie left to the runtime's list
      // order) and by attempt, then creation time, from 1.36.
      attempt: 2 * i + (chance(r, 0.2) ? 1 : 0),
      state: newest && chance(r, 0.85) ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY',
      createdAgo: 4000 - i * 1000,
      ip: pod.spec.hostNetwork || chance(r, 0.05) ? '' : `10.0.0.${2 + i}`,
      ...(chance(r, 0.05) ? { network: pod.spec.hostNetwork ? 'POD' : 'NODE' } : {}),
    });
  }
  let cid = 0;
  const stateOf = (): ScenarioContainer['state'] =>
    pick(r, [
      'CONTAINER_RUNNING',
      'CONTAINER_RUNNING',
      'CONTAINER_EXITED',
      'CONTAINER_EXITED',
      'CONTAINER_CREATED',
      'CONTAINER_UNKNOWN',
    ]);
  for (const sb of sandboxes) {
    const newest = sb === sandboxes[sandboxes.length - 1];
    // Init containers in order: a prefix has run (the last may still run or have failed).
    let initDone = true;
    for (const c of initContainers) {
      if (!initDone && !chance(r, 0.1)) break;
      if (chance(r, 0.15)) break;
      const state: ScenarioContainer['state'] =
        c.restartPolicy === 'Always'
          ? stateOf()
          : pick(r, [
              'CONTAINER_EXITED',
              'CONTAINER_EXITED',
              'CONTAINER_EXITED',
              'CONTAINER_RUNNING',
              'CONTAINER_CREATED',
            ] as const);
      const exitCode = state === 'CONTAINER_EXITED' ? pick(r, [0, 0, 0, 1, 137]) : 0;
      if (state !== 'CONTAINER_EXITED' || exitCode !== 0)
        initDone = c.restartPolicy === 'Always' && state === 'CONTAINER_RUNNING';
      crs.push(instance(r, c, sb, `c${cid++}`, state, exitCode, newest, 0, podLimits));
      if (chance(r, 0.15))
        crs.push(instance(r, c, sb, `c${cid++}`, 'CONTAINER_EXITED', pick(r, [0, 1]), newest, 1, podLimits));
    }
    for (const c of containers) {
      if (chance(r, 0.2)) continue;
      const state = stateOf();
      const exitCode = state === 'CONTAINER_EXITED' ? pick(r, [0, 1, 2, 42, 137]) : 0;
      crs.push(instance(r, c, sb, `c${cid++}`, state, exitCode, newest, 0, podLimits));
      if (chance(r, 0.2))
        crs.push(instance(r, c, sb, `c${cid++}`, 'CONTAINER_EXITED', pick(r, [0, 1]), newest, 1, podLimits));
    }
  }
  const newestSandbox = sandboxes[sandboxes.length - 1];
  unorderedAttempts(sandboxes, mulberry32(seed * 104729 + n * 31 + Number(minor.split('.')[1] ?? 0)), pod);
  for (const c of pod.spec.ephemeralContainers ?? [])
    if (newestSandbox && chance(r, 0.5))
      crs.push(instance(r, c, newestSandbox, `c${cid++}`, stateOf(), 0, true, 0, podLimits));
  for (const c of [...initContainers, ...containers]) {
    if (c.livenessProbe && chance(r, 0.4)) liveness[c.name] = pick(r, ['failure', 'success']);
    if (c.startupProbe && chance(r, 0.4)) startup[c.name] = pick(r, ['failure', 'success']);
  }
  const scenario: Scenario = { name: `random ${minor} seed ${seed} #${n}`, pod, sandboxes, containers: crs, images };
  if (Object.keys(gates).length) scenario.gates = gates;
  if (Object.keys(liveness).length) scenario.liveness = liveness;
  if (Object.keys(startup).length) scenario.startup = startup;
  return scenario;
}

function instance(
  r: Rng,
  c: Record<string, any>,
  sb: ScenarioSandbox,
  id: string,
  state: ScenarioContainer['state'],
  exitCode: number,
  newest: boolean,
  older: number,
  podLimits: Record<string, string> | undefined,
): ScenarioContainer {
  // Containers are made after their sandbox, a newer sandbox's after an older one's (no two equal).
  const base = (sb.createdAgo ?? 4000) - 1000;
  const out: ScenarioContainer = {
    id,
    sandbox: sb.id,
    name: c.name,
    attempt: older ? 0 : int(r, 0, 3),
    state,
    createdAgo: older ? base + 500 : base,
    startedAgo: older ? base + 400 : base - 100,
    finishedAgo: older ? base + 300 : pick(r, [5, 60, 600]),
    ...(state === 'CONTAINER_EXITED'
      ? { exitCode, reason: exitCode === 0 ? 'Completed' : exitCode === 137 ? 'OOMKilled' : 'Error' }
      : {}),
    restartCount: older ? 0 : int(r, 0, 6),
  };
  if (chance(r, 0.15)) out.hash = pick(r, ['deadbeef', '1a2b3c4d']);
  if (chance(r, 0.05)) out.image = pick(r, IMAGES);
  // The runtime reports resources for running containers, and for some stopped ones too (a
  // container started again with other resources resizes the pod first, 1.37).
  if ((state === 'CONTAINER_RUNNING' || chance(r, 0.3)) && newest && chance(r, 0.8)) {
    const rep = reported(c.resources, podLimits);
    if (chance(r, 0.25) && rep) {
      // The spec was resized since the container started: the runtime reports the old values.
      rep.cpuShares = pick(r, [2, 102, 256, 1024]);
      if (chance(r, 0.5)) rep.memoryLimitInBytes = pick(r, [0, 67108864, 536870912]);
      if (chance(r, 0.3)) rep.cpuQuota = pick(r, [0, 50000, 200000]);
    }
    out.resources = rep;
  }
  return out;
}

/** `count` scenarios for a minor from a seed. */
/**
 * Sometimes a pod's sandboxes' attempts do not grow with their age (sandboxes made by another tool, a
 * clock stepped back): the attempts of two sandboxes are swapped, or an older sandbox with a higher
 * attempt is added. Kubelet then reads another sandbox as newest by minor (creation time up to 1.34,
 * attempt from 1.35). Attempts and creation times stay distinct: kubelet leaves ties to the runtime's
 * list order (1.35: equal attempts; up to 1.34: equal times), which its fake runtime does not fix.
 * Drawn from a generator of its own, so everything else in a scenario stays as the seed gave it.
 */
function unorderedAttempts(sandboxes: ScenarioSandbox[], r: Rng, pod: Record<string, any>): void {
  if (sandboxes.length >= 2 && chance(r, 0.3)) {
    const [first, last] = [sandboxes[0], sandboxes[sandboxes.length - 1]];
    [first.attempt, last.attempt] = [last.attempt, first.attempt];
  } else if (sandboxes.length >= 1 && chance(r, 0.15)) {
    const highest = Math.max(...sandboxes.map((s) => s.attempt ?? 0));
    sandboxes.unshift({
      id: 'sb-old',
      attempt: highest + 1 + int(r, 0, 2),
      state: chance(r, 0.4) ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY',
      createdAgo: 5000,
      ip: pod.spec.hostNetwork ? '' : '10.0.0.9',
    });
  }
}

export function randomScenarios(minor: string, seed: number, count: number, specs: GateSpecs): Scenario[] {
  const r = mulberry32(seed * 7919 + Number(minor.split('.')[1] ?? 0));
  return Array.from({ length: count }, (_, n) => randomScenario(minor, r, n, seed, specs));
}
