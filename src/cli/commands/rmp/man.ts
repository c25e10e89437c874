// The man page text of `syncpod rmp` (man/syncpod-rmp.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, PROFILE_FILES, OK_OR_ERROR, KUBELET_AWARE_ALL, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Removes pod sandboxes (RemovePodSandbox) with their containers, by ID or unique prefix, or every sandbox with -a; -f stops a ready one first. --dry-run prints the requests and sends nothing.',
    KUBELET_AWARE_ALL,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: [...PROFILE_FILES, 'staticPods', 'podsApi'],
  examples: [
    { what: 'Remove a sandbox, stopping it first:', command: 'syncpod rmp -f 4dff5610bdd4f' },
    {
      what: 'Remove the pods no desired pod owns (orphans and pods made by hand):',
      command:
        'kubectl get pods -A --field-selector spec.nodeName=$(hostname) -o yaml > pods.yaml\nsyncpod rmp -a --node --pods pods.yaml',
    },
  ],
  seeAlso: ['stopp', 'rm', 'sync', 'crictl(1)'],
};
