// The oracle's scenario: one pod, what the runtime holds for it, the prober's results and the
// feature gates; the same data drives kubelet's code (the Go oracle) and syncpod (through a CRI
// stand-in). A scenario file (YAML or JSON, `npm run oracle -- --scenario FILE`) is this shape;
// README "Kubelet oracle" documents it. Times are seconds before now, so a file stays valid.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface ScenarioSandbox {
  id: string;
  attempt?: number;
  /** SANDBOX_READY (default) or SANDBOX_NOTREADY. */
  state?: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
  /** Seconds before now. */
  createdAgo?: number;
  ip?: string;
  /** Network namespace mode as reported: POD or NODE (default: as the pod's hostNetwork). */
  network?: 'POD' | 'NODE';
}

export interface ScenarioContainer {
  id: string;
  sandbox: string;
  name: string;
  attempt?: number;
  /** Default: the pod's image of that container. */
  image?: string;
  state: 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
  createdAgo?: number;
  startedAgo?: number;
  finishedAgo?: number;
  exitCode?: number;
  reason?: string;
  /** The io.kubernetes.container.hash annotation (hex); default: kubelet's hash of the pod's container. */
  hash?: string;
  restartCount?: number;
  /** The Linux resources the runtime reports (ContainerStatus.resources.linux). */
  resources?: { cpuShares: number; cpuQuota: number; cpuPeriod: number; memoryLimitInBytes: number };
}

export interface Scenario {
  name: string;
  /** Feature gates set for both sides (unset: the release's defaults). */
  gates?: Record<string, boolean>;
  /** The pod manifest (a uid is needed so both sides match it by the uid label). */
  pod: Record<string, any>;
  sandboxes?: ScenarioSandbox[];
  containers?: ScenarioContainer[];
  /** Images present on the node. */
  images?: string[];
  /** Prober results held by kubelet: container name -> failure|success. */
  liveness?: Record<string, 'failure' | 'success'>;
  startup?: Record<string, 'failure' | 'success'>;
  /**
   * The pod's memory usage in bytes as kubelet's stats report it (default 0): kubelet lowers a
   * memory limit in place only while the usage is below the new limit.
   */
  memoryUsage?: number;
}

const KEYS = new Set([
  'name',
  'gates',
  'pod',
  'sandboxes',
  'containers',
  'images',
  'liveness',
  'startup',
  'memoryUsage',
]);

/** Reads and checks a scenario file; a bad one is refused with the file and field named. */
export function loadScenario(file: string): Scenario {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  return checkScenario(doc, file);
}

export function checkScenario(doc: unknown, where: string): Scenario {
  const fail = (field: string, what: string): never => {
    throw new Error(`${where}: ${field}: ${what}`);
  };
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) fail('(document)', 'must be a mapping');
  const s = doc as Record<string, any>;
  for (const k of Object.keys(s)) if (!KEYS.has(k)) fail(k, 'unknown field');
  if (typeof s.name !== 'string' || !s.name) fail('name', 'must be a non-empty string');
  if (!s.pod || typeof s.pod !== 'object') fail('pod', 'must be a pod manifest');
  if (!s.pod.metadata?.uid) fail('pod.metadata.uid', 'must be set (both sides match the pod by its uid label)');
  for (const [i, b] of (s.sandboxes ?? []).entries()) if (!b?.id) fail(`sandboxes[${i}].id`, 'must be set');
  const ids = new Set((s.sandboxes ?? []).map((b: ScenarioSandbox) => b.id));
  for (const [i, c] of (s.containers ?? []).entries()) {
    if (!c?.id) fail(`containers[${i}].id`, 'must be set');
    if (!c.name) fail(`containers[${i}].name`, 'must be set');
    if (!ids.has(c.sandbox)) fail(`containers[${i}].sandbox`, `no sandbox ${JSON.stringify(c.sandbox)}`);
    if (!['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_UNKNOWN'].includes(c.state))
      fail(
        `containers[${i}].state`,
        'must be CONTAINER_CREATED, CONTAINER_RUNNING, CONTAINER_EXITED or CONTAINER_UNKNOWN',
      );
  }
  for (const probe of ['liveness', 'startup'])
    for (const [k, v] of Object.entries(s[probe] ?? {}))
      if (v !== 'failure' && v !== 'success') fail(`${probe}.${k}`, 'must be failure or success');
  return s as Scenario;
}

/** Nanoseconds since the epoch, `ago` seconds before `nowMs`, as a number the Go side reads. */
function at(nowMs: number, ago: number | undefined): number {
  if (ago === undefined) return 0;
  return (nowMs - ago * 1000) * 1e6;
}

/** The scenario as the Go oracle reads it (one JSON line): times made absolute. */
export function oracleInput(s: Scenario, nowMs: number): string {
  return JSON.stringify({
    name: s.name,
    gates: s.gates ?? {},
    pod: s.pod,
    sandboxes: (s.sandboxes ?? []).map((b) => ({
      id: b.id,
      attempt: b.attempt ?? 0,
      state: b.state ?? 'SANDBOX_READY',
      createdAt: at(nowMs, b.createdAgo ?? 3600),
      ip: b.ip ?? '',
      network: b.network ?? '',
    })),
    containers: (s.containers ?? []).map((c) => ({
      id: c.id,
      sandbox: c.sandbox,
      name: c.name,
      attempt: c.attempt ?? 0,
      image: c.image ?? '',
      state: c.state,
      createdAt: at(nowMs, c.createdAgo ?? 3000),
      startedAt: c.state === 'CONTAINER_CREATED' ? 0 : at(nowMs, c.startedAgo ?? 2900),
      finishedAt: c.state === 'CONTAINER_EXITED' ? at(nowMs, c.finishedAgo ?? 1200) : 0,
      exitCode: c.exitCode ?? 0,
      reason: c.reason ?? '',
      hash: c.hash ?? '',
      restartCount: c.restartCount ?? 0,
      resources: c.resources ?? null,
    })),
    images: s.images ?? [],
    liveness: s.liveness ?? {},
    startup: s.startup ?? {},
    memoryUsage: s.memoryUsage ?? 0,
  });
}
