// The man page text of `syncpod events` (man/syncpod-events.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, STREAM_ENDS, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Streams the runtime's container events (GetContainerEvents, what the kubelet's evented PLEG reads): created, started, stopped, deleted, with the container and pod status, until Ctrl-C, as crictl 1.37 prints them: each event's indented JSON (-o json), its YAML and an empty line (-o yaml), or the text of --template run on its JSON and a newline (-o go-template; the template is checked before the stream starts, and an event it cannot be run on is said on stderr while the stream goes on).",
    LOOK_NEVER,
  ],
  exitStatus: [
    ['0', `The stream ended. ${STREAM_ENDS}`],
    ['1', 'An error: the runtime does not implement GetContainerEvents, or the stream failed.'],
  ],
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [
    {
      what: 'Watch containers start and stop while a pod is synced elsewhere:',
      command: "syncpod events | jq -c '{type: .containerEventType, id: .containerId}'",
    },
    {
      what: 'One line per event: its type, container and pod:',
      command:
        "syncpod events -o go-template --template '{{.containerEventType}} {{.containerId}} {{.podSandboxStatus.metadata.name}}'",
    },
  ],
  seeAlso: ['ps', 'crictl(1)'],
};
