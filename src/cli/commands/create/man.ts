// The man page text of `syncpod create` (man/syncpod-create.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { IMAGE_ENV, PROFILE_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Creates a container in a pod sandbox (CreateContainer) and prints its ID. With --container NAME and a pod manifest, the request is the container config the kubelet would generate for that container (regular, init or ephemeral): labels, annotations, hash, restart count, log path, mounts, environment (with --env-file values), resources and security context; the image is pulled first as imagePullPolicy says (--no-pull never). Crictl's form takes CONTAINER.json and SANDBOX.json and sends them as they are.",
    "It pulls the image (manifest form) and creates the container's log directory and the container; it does not start it (see start). --dry-run prints the request and the pull decision as JSON, Secret values redacted unless --show-secrets, and changes nothing.",
  ],
  exitStatus: OK_OR_ERROR,
  environment: IMAGE_ENV,
  files: [...PROFILE_FILES, 'podLogs', 'podDirs', 'resolvConf', 'hosts', 'cgroups'],
  examples: [
    {
      what: 'The app container of a manifest, as the kubelet would create it:',
      command: 'syncpod create 4dff5610bdd4f web.yaml --container app',
    },
    { what: 'The crictl form:', command: 'syncpod create 4dff5610bdd4f container.json sandbox.json' },
    {
      what: 'A run by hand: sandbox, container, start:',
      command: 'POD=$(syncpod runp web.yaml)\nsyncpod start $(syncpod create $POD web.yaml --container app)',
    },
  ],
  seeAlso: ['runp', 'start', 'sync', 'crictl(1)'],
};
