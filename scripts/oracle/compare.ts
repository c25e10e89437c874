// Both sides of a scenario as one comparable list of CRI calls: kubelet's recorded calls (the Go
// oracle) and the requests `syncpod sync --dry-run` would send. Each call is one line naming its
// target by container name (and the scenario's ids for what existed before the sync); a new
// sandbox is "new" on both sides. Kubelet stops a pod's containers in parallel and keeps
// containers to kill in a map, so a run of consecutive StopContainer (or StopPodSandbox) calls
// is compared as a set (sorted), and a run of RemoveContainer calls by container name (kubelet
// walks init container names as a set); everything else in order.

/** A call as the Go oracle records it. */
export interface KubeletCall {
  op: string;
  sandbox?: string;
  container?: string;
  id?: string;
  attempt?: number;
  image?: string;
  resources?: { cpuShares: number; cpuQuota: number; cpuPeriod: number; memoryLimitInBytes: number };
}

/** A request as `sync --dry-run -o json` records it. */
export interface RecordedRequest {
  service: string;
  rpc: string;
  request: any;
}

const num = (v: unknown): number => Number(v ?? 0);

function resourcesText(r: Record<string, unknown> | undefined): string {
  if (!r) return '';
  return ` cpuShares=${num(r.cpuShares)} cpuQuota=${num(r.cpuQuota)} cpuPeriod=${num(r.cpuPeriod)} memory=${num(r.memoryLimitInBytes)}`;
}

/**
 * Runs of calls whose order kubelet does not fix are sorted: StopContainer and StopPodSandbox runs
 * (whole lines), and RemoveContainer runs by container name only, each name's removals kept in
 * their order (purgeInitContainers and pruneInitContainersBeforeStart walk a set of init container
 * names, in Go's random map order; a RestartAllContainers reset of several exited containers is
 * compared the same way).
 */
function canonical(lines: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const op = lines[i].split(' ')[0];
    if (op === 'StopContainer' || op === 'StopPodSandbox' || op === 'RemoveContainer') {
      let j = i;
      while (j < lines.length && lines[j].split(' ')[0] === op) j++;
      const run = lines.slice(i, j);
      if (op === 'RemoveContainer') {
        const name = (l: string) => l.split(' ')[1];
        out.push(
          ...run
            .map((l, k) => [l, k] as const)
            .sort((a, b) => name(a[0]).localeCompare(name(b[0])) || a[1] - b[1])
            .map(([l]) => l),
        );
      } else out.push(...run.sort());
      i = j;
    } else out.push(lines[i++]);
  }
  return out;
}

/** Kubelet's calls as lines; `known` holds the scenario's sandbox ids (others are new). */
export function kubeletLines(calls: KubeletCall[], known: Set<string>): string[] {
  const sandbox = (id = '') => (known.has(id) ? id : 'new');
  const lines = calls.map((c) => {
    switch (c.op) {
      case 'RunPodSandbox':
        return `RunPodSandbox attempt=${c.attempt ?? 0}`;
      case 'StopPodSandbox':
      case 'RemovePodSandbox':
        return `${c.op} ${sandbox(c.sandbox)}`;
      case 'CreateContainer':
        return `CreateContainer ${c.container} attempt=${c.attempt ?? 0} sandbox=${sandbox(c.sandbox)}`;
      case 'StartContainer':
        return `StartContainer ${c.container}`;
      case 'StopContainer':
      case 'RemoveContainer':
        return `${c.op} ${c.container} ${known.has(c.id ?? '') ? c.id : 'new'}`;
      case 'UpdateContainerResources':
        return `UpdateContainerResources ${c.container}${resourcesText(c.resources)}`;
      case 'UpdatePodSandboxResources':
        return `UpdatePodSandboxResources ${sandbox(c.sandbox)}${resourcesText(c.resources)}`;
      case 'PullImage':
        return `PullImage ${c.image}`;
      default:
        return c.op;
    }
  });
  return canonical(lines);
}

/**
 * syncpod's recorded requests as lines. `names` maps the scenario's container ids to names;
 * `known` holds its sandbox and container ids.
 */
export function syncpodLines(
  requests: RecordedRequest[],
  names: Map<string, string>,
  known: Set<string>,
  pullsAlways: (container: string) => boolean = () => false,
): string[] {
  const created: string[] = [];
  const pulled = new Set<string>();
  const lines: string[] = [];
  const sandbox = (id = '') => (known.has(id) ? id : 'new');
  const nameOf = (id: string) => {
    const m = /^<id of new container (\d+)>$/.exec(id);
    return m ? created[Number(m[1]) - 1] : names.get(id);
  };
  for (const [i, { rpc, request: r }] of requests.entries()) {
    switch (rpc) {
      case 'RunPodSandbox':
        lines.push(`RunPodSandbox attempt=${num(r.config?.metadata?.attempt)}`);
        break;
      case 'StopPodSandbox':
      case 'RemovePodSandbox':
        lines.push(`${rpc} ${sandbox(r.podSandboxId)}`);
        break;
      case 'CreateContainer':
        created.push(r.config?.metadata?.name);
        lines.push(
          `CreateContainer ${r.config?.metadata?.name} attempt=${num(r.config?.metadata?.attempt)} sandbox=${sandbox(r.podSandboxId)}`,
        );
        break;
      case 'StartContainer':
        lines.push(`StartContainer ${nameOf(r.containerId)}`);
        break;
      case 'StopContainer':
      case 'RemoveContainer':
        lines.push(`${rpc} ${nameOf(r.containerId)} ${known.has(r.containerId) ? r.containerId : 'new'}`);
        break;
      case 'UpdateContainerResources':
        lines.push(`UpdateContainerResources ${nameOf(r.containerId)}${resourcesText(r.linux)}`);
        break;
      case 'UpdatePodSandboxResources':
        lines.push(`UpdatePodSandboxResources ${sandbox(r.podSandboxId)}${resourcesText(r.resources)}`);
        break;
      case 'PullImage': {
        // A dry run pulls nothing, so a second IfNotPresent pull of one image in the same sync would,
        // on a node, find it present: it is dropped (a pull for an Always container is kept).
        const image = String(r.image?.image);
        const next = requests.slice(i + 1).find((q) => q.rpc === 'CreateContainer');
        const always = pullsAlways(String(next?.request?.config?.metadata?.name ?? ''));
        if (pulled.has(image) && !always) break;
        pulled.add(image);
        lines.push(`PullImage ${image}`);
        break;
      }
      case 'ExecSync':
        // preStop exec hooks: kubelet's fake runtime does not record them either.
        break;
      default:
        lines.push(rpc);
    }
  }
  return canonical(lines);
}

export function sameCalls(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
