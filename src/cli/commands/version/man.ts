// The man page text of `syncpod version` (man/syncpod-version.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Asks the runtime for its name and version (the CRI Version call) and prints crictl's four lines: Version, RuntimeName, RuntimeVersion, RuntimeApiVersion. The CRI API version syncpod negotiated (runtime.v1, or runtime.v1alpha2 when the runtime answers Unimplemented to v1; --api forces one) goes to stderr when it is not v1, and is criApiInUse in -o json|yaml.",
    "It is the quickest test that the endpoint answers. syncpod's own version is `syncpod --version`, which asks nothing.",
    LOOK_NEVER,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [
    {
      what: 'Is containerd answering on its usual socket?',
      command: 'syncpod -r unix:///run/containerd/containerd.sock version',
    },
    { what: 'The runtime version as JSON, for a script:', command: 'syncpod version -o json' },
  ],
  seeAlso: ['info', 'crictl(1)'],
};
