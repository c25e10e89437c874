// The man page text of `syncpod pods` (man/syncpod-pods.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { listDoc, type CommandDoc } from '../../man-text';

export const man: CommandDoc = listDoc(
  'the pod sandboxes',
  'ListPodSandbox',
  [
    { what: 'Every sandbox, newest first:', command: 'syncpod pods' },
    {
      what: 'The ready sandboxes of the kube-system namespace:',
      command: 'syncpod pods --namespace kube-system -s ready',
    },
    {
      what: 'The IDs of the sandboxes of one pod, for a script:',
      command: 'syncpod pods --name "^web$" --label io.kubernetes.pod.namespace=demo -q',
    },
  ],
  [
    "--name and --namespace are regular expressions, --id a prefix, --label key=value repeatable; -l/--latest and -n/--last N keep the newest. -v prints crictl's verbose block per pod.",
  ],
);
