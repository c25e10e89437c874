// The man page text of `syncpod events` (man/syncpod-events.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, STREAM_ENDS, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Streams the runtime's container events (GetContainerEvents, what the kubelet's evented PLEG reads): created, started, stopped, deleted, with the container and pod status. One JSON object per line, or one YAML document per event with -o yaml, until Ctrl-C.",
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
  ],
  seeAlso: ['ps', 'crictl(1)'],
};
