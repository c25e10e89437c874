// The man page text of `syncpod plan` (man/syncpod-plan.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { IMAGE_ENV, PROFILE_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Computes what the kubelet's SyncPod would do for each pod in the manifests, and why, without changing anything. It reads the manifests (a Pod, a workload's pod template, a List, `kubectl get pod -o yaml`; '-' for stdin), applies the API server's defaults and validation, reads the pods' sandboxes and containers from the runtime (ListPodSandbox, ListContainers and their statuses, as the kubelet's GetPodStatus), and runs a mirror of the kubelet's computePodActions for the kubelet version in use: kill the pod or containers, create a sandbox, start init, ephemeral and regular containers, each step with its reason, then a summary line.",
    "The kubelet version, feature gates, cgroup driver, DNS and directories come from the running kubelet (the node profile, see syncpod-node(1)) unless given as flags, else syncpod's defaults. What the plan cannot know (probe results, back-off timers, how live state was matched) is listed as assumptions; --liveness-failed, --startup-failed and --startup-succeeded give probe results.",
    "With --node it plans every pod this node should run: the static pods of the kubelet's staticPodPath, pods given as files (e.g. `kubectl get pods -A --field-selector spec.nodeName=NODE -o yaml`) and, where its socket exists, the kubelet's Pods API; sandboxes and containers with the kubelet's labels that no desired pod owns are reported as orphans, with what the kubelet would do to them. --upgrade-to previews a newer kubelet: first whether it would start on this node at all (the start-up preconditions of that release the node fails: a flag it removed, a gate it locks or no longer knows, cgroup v1 with failCgroupV1, swap, a runtime without RuntimeConfig or runtime.v1, configuration it validates anew; each with its evidence and what to change), then which running containers its first sync would restart. --every repeats for a DaemonSet.",
    'It never calls a CRI method that changes state, writes no file, and never talks to an API server. -o json|yaml is a contract: fields are only ever added.',
  ],
  exitStatus: [
    ['0', 'The plan was made (with --detailed-exitcode: nothing would change).'],
    [
      '1',
      'An error: a manifest that does not parse or validate (one line naming the file, document and field), an unreachable runtime, a kubelet configuration that cannot be read; with --node also any input problem (listed on stderr; the rest is still planned). With --upgrade-to and --detailed-exitcode: the target kubelet would not start on this node. Without --node: a pod is blocked, with or without --detailed-exitcode (a volume syncpod cannot provide: a persistentVolumeClaim, csi, nfs, … volume, or a configMap, secret or projected volume whose data was not given; the plan says which).',
    ],
    ['2', 'With --detailed-exitcode: changes are pending (with --node, orphans count as changes).'],
    [
      '0, 1, 2',
      'With --node -o npd (a node-problem-detector plugin): 0 OK, 1 NonOK (a pod would change or is blocked, or an orphan), 2 Unknown (an input or the runtime could not be read).',
    ],
  ],
  environment: [...IMAGE_ENV, 'NO_COLOR'],
  files: [...PROFILE_FILES, 'staticPods', 'podsApi', 'podDirs', 'podLogs', 'resolvConf', 'cgroups'],
  examples: [
    { what: 'What would the kubelet do for this manifest?', command: 'syncpod plan web.yaml' },
    {
      what: 'In a script or CI: exit 2 when something would change:',
      command: 'syncpod plan --detailed-exitcode -o json deploy/*.yaml > plan.json',
    },
    {
      what: 'The pod as the API server holds it, with a liveness probe assumed failing:',
      command: 'kubectl get pod -n demo web -o yaml | syncpod plan --liveness-failed app -',
    },
    {
      what: 'The whole node, with the pods the API server binds to it:',
      command: 'kubectl get pods -A --field-selector spec.nodeName=$(hostname) -o yaml | syncpod plan --node -',
    },
    {
      what: 'Which containers would a kubelet 1.37 restart after an in-place upgrade?',
      command: 'syncpod plan --node --upgrade-to 1.37',
    },
    { what: 'As a node-problem-detector custom plugin:', command: 'syncpod plan --node -o npd' },
  ],
  seeAlso: ['sync', 'node', 'doctor', 'report'],
};
