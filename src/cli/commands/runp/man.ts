// The man page text of `syncpod runp` (man/syncpod-runp.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, PROFILE_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Runs a new pod sandbox (RunPodSandbox) and prints its ID. From a pod manifest, the request is the sandbox config the kubelet would generate (labels, annotations, hostname, DNS, ports, log directory, cgroup parent, security context, the next attempt after the pod's newest sandbox), with the node's settings from the node profile; a crictl PodSandboxConfig file is sent as it is. -r/--runtime picks the runtime handler.",
    "It creates the pod's log directory and the sandbox; it starts no container (see create, start) and pulls no image itself. --dry-run prints the request as JSON and changes nothing.",
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: [...PROFILE_FILES, 'podLogs', 'resolvConf', 'cgroups'],
  examples: [
    { what: "A sandbox with the kubelet's config for this manifest:", command: 'syncpod runp web.yaml' },
    { what: 'A crictl sandbox config with the runc handler:', command: 'syncpod runp -r runc sandbox.json' },
    { what: 'The RunPodSandbox request only:', command: 'syncpod runp --dry-run web.yaml' },
  ],
  seeAlso: ['create', 'sync', 'stopp', 'rmp', 'crictl(1)'],
};
