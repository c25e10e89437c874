// doctor checks of the pods group, from the runtime's two lists (shared with the node plan) and
// the status of each pod container's newest exited instance: crash loops (with the back-off kubelet
// is in now, as the plan estimates it), OOM kills, containers stuck in Created/Unknown, NotReady
// sandboxes kubelet's garbage collector would remove, and orphans as `plan --node` finds them.
import type * as T from '../../cri/types';
import { estimateCrashLoopBackOff } from '../../kubelet/backoff';
import {
  ANNOTATION_CONTAINER_RESTART_COUNT,
  LABEL_CONTAINER_NAME,
  LABEL_POD_NAME,
  LABEL_POD_NAMESPACE,
  LABEL_POD_UID,
} from '../../kubelet/types';
import { mapBounded } from '../../state/pod-status';
import type { CheckOutcome, DoctorCheck, DoctorEnv, Evidence } from '../types';

const ev = (name: string, value: string, from: string): Evidence => ({ name, value, from });
const nsToMs = (ns: string | undefined): number => (ns && ns !== '0' ? Number(ns) / 1e6 : 0);
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
/** Evidence lists are capped: the count is in the summary, the first ones are enough to act on. */
const MAX_EVIDENCE = 10;

/** A container made by kubelet: its pod's identity and its own name in labels. */
const isKubeletContainer = (c: T.Container): boolean => !!c.labels?.[LABEL_POD_UID] && !!c.labels[LABEL_CONTAINER_NAME];
const podOf = (l: Record<string, string>): string => `${l[LABEL_POD_NAMESPACE] ?? ''}/${l[LABEL_POD_NAME] ?? ''}`;
const containerRef = (c: { labels: Record<string, string> }): string =>
  `${podOf(c.labels)} ${c.labels[LABEL_CONTAINER_NAME]}`;

interface LastExit {
  container: T.Container;
  status: T.ContainerStatus;
  restartCount: number;
  /** Whether a newer instance of the same container is running or created. */
  replaced: boolean;
}

const lastExitsMemo = new WeakMap<DoctorEnv, Promise<LastExit[]>>();

/**
 * For each container of each pod (kubelet's labels), its newest exited instance with its status
 * (exit code, reason, times): kubelet's "last termination state". One ContainerStatus per such
 * instance, shared by pods.crashloop and pods.oomkilled.
 */
function lastExits(env: DoctorEnv): Promise<LastExit[]> {
  let p = lastExitsMemo.get(env);
  if (!p) {
    p = (async () => {
      const byKey = new Map<string, T.Container[]>();
      for (const c of await env.cri.containers()) {
        if (!isKubeletContainer(c)) continue;
        const key = `${c.labels[LABEL_POD_UID]}/${c.labels[LABEL_CONTAINER_NAME]}`;
        const list = byKey.get(key);
        if (list) list.push(c);
        else byKey.set(key, [c]);
      }
      const picks: { c: T.Container; replaced: boolean }[] = [];
      for (const key of [...byKey.keys()].sort()) {
        const list = byKey
          .get(key)!
          .sort((a, b) => nsToMs(b.createdAt) - nsToMs(a.createdAt) || a.id.localeCompare(b.id));
        const exited = list.find((c) => c.state === 'CONTAINER_EXITED');
        if (exited) picks.push({ c: exited, replaced: list[0] !== exited });
      }
      const statuses = await mapBounded(picks, 16, (p) => env.cri.containerStatus(p.c.id));
      const out: LastExit[] = [];
      picks.forEach((p, i) => {
        const s = statuses[i];
        if (!s) return;
        const restartCount =
          Number(
            p.c.annotations?.[ANNOTATION_CONTAINER_RESTART_COUNT] ??
              s.annotations?.[ANNOTATION_CONTAINER_RESTART_COUNT] ??
              0,
          ) || 0;
        out.push({ container: p.c, status: s, restartCount, replaced: p.replaced });
      });
      return out;
    })();
    lastExitsMemo.set(env, p);
  }
  return p;
}

function counted(findings: Evidence[], total: number, from: string): Evidence[] {
  return total > findings.length ? [...findings, ev('more', `${total - findings.length} more`, from)] : findings;
}

export const podsChecks: DoctorCheck[] = [
  {
    id: 'pods.crashloop',
    group: 'pods',
    title: 'containers in a crash loop',
    async run(env) {
      const now = env.now();
      const looping = (await lastExits(env)).filter(
        (x) => !x.replaced && x.restartCount >= 1 && (x.status.exitCode !== 0 || x.restartCount >= 3),
      );
      if (looping.length === 0)
        return { status: 'ok', summary: 'No container is exiting over and over.', evidence: [] };
      const evidence = looping.slice(0, MAX_EVIDENCE).map((x) => {
        const b = estimateCrashLoopBackOff({
          restartCount: x.restartCount,
          startedAt: nsToMs(x.status.startedAt),
          finishedAt: nsToMs(x.status.finishedAt),
          now,
        });
        const backOff = b.heldBack
          ? `CrashLoopBackOff, next start in ~${b.remainingSeconds}s of ${b.delaySeconds}s`
          : b.delaySeconds
            ? `back-off of ${b.delaySeconds}s has passed: kubelet restarts it at its next sync`
            : 'restarted at the next sync';
        const oom = x.status.reason === 'OOMKilled' ? ' (OOMKilled)' : '';
        return ev(
          containerRef(x.container),
          `restarts ${x.restartCount}, last exit code ${x.status.exitCode}${x.status.reason ? ` ${x.status.reason}` : ''}${oom && !x.status.reason ? oom : ''}; ${backOff}`,
          `CRI ContainerStatus ${x.container.id.slice(0, 13)}`,
        );
      });
      const first = looping[0];
      return {
        status: 'fail',
        summary: `${plural(looping.length, 'container')} in a crash loop, first ${containerRef(first.container)}: exit code ${first.status.exitCode}${first.status.reason ? ` (${first.status.reason})` : ''} after ${plural(first.restartCount, 'restart')}.`,
        evidence: counted(evidence, looping.length, 'CRI ListContainers'),
        remedy:
          'Read why it exits: syncpod logs --previous <container> (or crictl logs); an OOMKilled one needs a higher memory limit.',
      };
    },
  },
  {
    id: 'pods.oomkilled',
    group: 'pods',
    title: 'containers whose last exit was an OOM kill',
    async run(env) {
      const oom = (await lastExits(env)).filter((x) => x.status.reason === 'OOMKilled');
      if (oom.length === 0)
        return { status: 'ok', summary: 'No container was OOMKilled in its last exit.', evidence: [] };
      const evidence = oom
        .slice(0, MAX_EVIDENCE)
        .map((x) =>
          ev(
            containerRef(x.container),
            `OOMKilled, exit code ${x.status.exitCode}, finished ${new Date(nsToMs(x.status.finishedAt)).toISOString()}${x.replaced ? ', running again' : ''}`,
            `CRI ContainerStatus ${x.container.id.slice(0, 13)}`,
          ),
        );
      return {
        status: 'warn',
        summary: `${plural(oom.length, 'container')} OOMKilled in ${oom.length === 1 ? 'its' : 'their'} last exit, first ${containerRef(oom[0].container)}.`,
        evidence: counted(evidence, oom.length, 'CRI ListContainers'),
        remedy:
          "Raise the container's memory limit (resources.limits.memory) or find what it allocates; node-wide OOMs show in the kernel log (dmesg).",
      };
    },
  },
  {
    id: 'pods.stuck',
    group: 'pods',
    title: 'containers stuck in Created or Unknown',
    async run(env) {
      const now = env.now();
      const bound = env.bounds.stuckAfterMs;
      const stuck = (await env.cri.containers())
        .filter(
          (c) =>
            (c.state === 'CONTAINER_CREATED' || c.state === 'CONTAINER_UNKNOWN') &&
            nsToMs(c.createdAt) > 0 &&
            now - nsToMs(c.createdAt) > bound,
        )
        .sort((a, b) => nsToMs(a.createdAt) - nsToMs(b.createdAt) || a.id.localeCompare(b.id));
      if (stuck.length === 0)
        return {
          status: 'ok',
          summary: `No container has been in Created or Unknown for more than ${bound / 1000}s.`,
          evidence: [],
        };
      const evidence = stuck
        .slice(0, MAX_EVIDENCE)
        .map((c) =>
          ev(
            isKubeletContainer(c) ? containerRef(c) : (c.metadata?.name ?? c.id.slice(0, 13)),
            `${c.state === 'CONTAINER_CREATED' ? 'Created' : 'Unknown'} for ${Math.floor((now - nsToMs(c.createdAt)) / 1000)}s (${c.id.slice(0, 13)})`,
            'CRI ListContainers',
          ),
        );
      return {
        status: 'warn',
        summary: `${plural(stuck.length, 'container')} in Created or Unknown for more than ${bound / 1000}s, first ${evidence[0].name}.`,
        evidence: counted(evidence, stuck.length, 'CRI ListContainers'),
        remedy:
          "Look at the runtime's log for the container id (a failed start, a hung shim); syncpod start or rm it, or let kubelet recreate it.",
      };
    },
  },
  {
    id: 'pods.dead-sandboxes',
    group: 'pods',
    title: "NotReady sandboxes kubelet's GC would remove",
    async run(env) {
      const sandboxes = await env.cri.sandboxes();
      let desired: ReadonlySet<string> | undefined;
      let why = '';
      try {
        desired = (await env.nodePlan()).desiredUids;
      } catch (err) {
        why = ` (the node's desired pods are unknown: ${(err as Error).message}; only superseded sandboxes are counted)`;
      }
      const newestOf = new Map<string, T.PodSandbox>();
      for (const s of sandboxes) {
        const uid = s.labels?.[LABEL_POD_UID];
        if (!uid) continue;
        const cur = newestOf.get(uid);
        if (!cur || nsToMs(s.createdAt) > nsToMs(cur.createdAt)) newestOf.set(uid, s);
      }
      const now = env.now();
      const dead = sandboxes
        .filter((s) => {
          const uid = s.labels?.[LABEL_POD_UID];
          if (s.state !== 'SANDBOX_NOTREADY' || !uid) return false;
          // kubelet's sandbox GC: every NotReady sandbox of a pod that is gone; of a live pod, all but the newest.
          return (desired !== undefined && !desired.has(uid)) || newestOf.get(uid) !== s;
        })
        .sort((a, b) => nsToMs(a.createdAt) - nsToMs(b.createdAt) || a.id.localeCompare(b.id));
      if (dead.length === 0)
        return {
          status: 'ok',
          summary: `No NotReady sandbox kubelet's garbage collector would remove${why}.`,
          evidence: [],
        };
      const evidence = dead
        .slice(0, MAX_EVIDENCE)
        .map((s) =>
          ev(
            podOf(s.labels),
            `NotReady sandbox ${s.id.slice(0, 13)}, attempt ${s.metadata?.attempt ?? 0}, created ${Math.floor((now - nsToMs(s.createdAt)) / 1000)}s ago`,
            'CRI ListPodSandbox',
          ),
        );
      return {
        status: 'warn',
        summary: `${plural(dead.length, 'NotReady sandbox', 'NotReady sandboxes')} that kubelet's garbage collector would remove are still there${why}, first ${podOf(dead[0].labels)}.`,
        evidence: counted(evidence, dead.length, 'CRI ListPodSandbox'),
        remedy:
          'If a kubelet runs, its GC is failing (journalctl -u kubelet); otherwise remove them: syncpod rmp <id> (or sync --node --remove-orphans for orphaned pods).',
      };
    },
  },
  {
    id: 'pods.orphans',
    group: 'pods',
    title: 'pods no desired pod owns (as plan --node finds them)',
    async run(env): Promise<CheckOutcome> {
      const node = await env.nodePlan();
      const orphans = node.plan.orphans;
      const source = node.podsApiRead
        ? 'the Pods API, static pods and --pods'
        : 'static pods and --pods (no Pods API answered)';
      if (orphans.length === 0)
        return {
          status: 'ok',
          summary: `No orphan pods: every pod with kubelet's labels is desired (${source}).`,
          evidence: [],
        };
      const evidence = orphans
        .slice(0, MAX_EVIDENCE)
        .map((o) =>
          ev(
            `${o.namespace}/${o.name}`,
            `uid ${o.uid}; ${o.sandboxes.length} sandbox(es), ${o.containers.length} container(s); kubelet would ${o.kubelet}`,
            'CRI ListPodSandbox, ListContainers',
          ),
        );
      return {
        status: 'warn',
        summary: `${plural(orphans.length, 'orphan pod')} no desired pod owns (desired: ${source}), first ${orphans[0].namespace}/${orphans[0].name}.`,
        evidence: counted(evidence, orphans.length, 'CRI ListPodSandbox'),
        remedy:
          'syncpod plan --node shows them with what kubelet would do; syncpod sync --node --remove-orphans removes them.',
      };
    },
  },
];
