// The man page text of `syncpod pull` (man/syncpod-pull.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { IMAGE_ENV, CRI_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Pulls an image (PullImage on the image endpoint) and prints "Image is up to date for" and the reference the runtime stored. Credentials as crictl takes them: --creds USER[:PASS] (or CRICTL_CREDS), --auth BASE64 (or CRICTL_AUTH), -u USER with the password asked for without echo (or read from the first line of stdin when it is not a terminal). --pod-config sends a sandbox config (or one made from a pod manifest) with the pull, for runtimes that pull per runtime handler; -a sets annotations on the image.',
    'The runtime stores the image; nothing else changes. --dry-run prints the request and sends nothing; its password, auth and tokens are redacted unless --show-secrets. --debug logs every request but never the registry credentials.',
  ],
  exitStatus: OK_OR_ERROR,
  environment: [...IMAGE_ENV, 'CRICTL_CREDS', 'CRICTL_AUTH'],
  files: CRI_FILES,
  examples: [
    { what: 'Pull a public image:', command: 'syncpod pull docker.io/library/busybox:1.36' },
    {
      what: 'From a private registry, the password asked for:',
      command: 'syncpod pull -u robot registry.example.com/team/app:2.1',
    },
  ],
  seeAlso: ['images', 'rmi', 'crictl(1)'],
};
