// The man page text of `syncpod sync` (man/syncpod-sync.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { IMAGE_ENV, PROFILE_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Converges a pod as the kubelet's SyncPod would: plans as `syncpod plan` does (same inputs, same node profile), asks before killing anything, then executes the steps in the kubelet's order: kill the pod or unwanted containers, create the sandbox (pod log directory, RunPodSandbox, its IP), pull images by imagePullPolicy, and create and start ephemeral, init and regular containers with the configs the kubelet generates, running postStart exec hooks. It stops where the kubelet stops and leaves what the kubelet leaves; running it again after success plans nothing.",
    "It changes the runtime (sandboxes, containers, images pulled) and the node files the kubelet would make for the pod: its log directory and the /var/log/containers links; with --node also what the kubelet's preflight makes (the pod cgroup, the pod directories under the kubelet's root, hostPath directories). A per-pod lock keeps two syncs of one pod apart. Other uids of the same namespace/name (duplicates) are killed and removed first. It touches nothing without the kubelet's labels and never talks to an API server: Secret and ConfigMap values come from --env-file (environment) and from --configmap, --secret and --service-account-token (volumes and environment; never printed). configMap, secret, downwardAPI and projected volumes are written as the kubelet's atomic writer lays them out (secret, downwardAPI and projected on a tmpfs), an emptyDir of medium Memory is a tmpfs sized as the kubelet sizes it; a pod with a volume syncpod cannot provide is refused before anything is done (--skip-volume leaves a volume out), and so is a new pod whose hostPath volume fails its type check (the kubelet mounts volumes before it creates the first sandbox).",
    "--wait waits for each init container and plans again, as the kubelet's next syncs would. --dry-run prints the plan and the exact CRI requests and sends nothing (Secret values redacted unless --show-secrets). With --node every pod this node should run is converged in one pass, --parallel at once; --remove-orphans also stops and removes pods with the kubelet's labels that no desired pod owns (and their logs).",
    'Progress goes to stderr, the result table (or -o json) to stdout. Without a terminal on stdin it refuses to kill without --yes.',
  ],
  exitStatus: [
    ['0', 'Every step succeeded (or, with --dry-run, every request could be made).'],
    [
      '1',
      'A step failed (the result table says which and what had been done), the kill was not confirmed, or an error before the first step (a bad manifest, a pod blocked by a volume syncpod cannot provide or a hostPath that fails its type check, an unreachable runtime, a lock held too long).',
    ],
  ],
  environment: [...IMAGE_ENV, 'NO_COLOR'],
  files: [
    ...PROFILE_FILES,
    'lock',
    'staticPods',
    'podsApi',
    'podDirs',
    'podLogs',
    'containerLogs',
    'resolvConf',
    'hosts',
    'cgroups',
  ],
  examples: [
    {
      what: 'Run a pod, waiting for its init containers, without questions:',
      command: 'syncpod sync --yes --wait web.yaml',
    },
    { what: 'See the exact CRI requests first, send nothing:', command: 'syncpod sync --dry-run -o json web.yaml' },
    {
      what: 'A `kubectl get pod -o yaml` dump, with the data of its ConfigMap and service-account token volumes:',
      command:
        'syncpod sync -y web.yaml --configmap kube-root-ca.crt=ca/ --configmap web-config=cfg/ --service-account-token default=sa.token',
    },
    {
      what: 'Converge every static pod and given pod of the node, removing orphans:',
      command: 'syncpod sync --node --remove-orphans --yes',
    },
    { what: 'Where did the time go?', command: 'syncpod sync --yes --timings web.yaml' },
  ],
  seeAlso: ['plan', 'runp', 'create', 'start'],
};
