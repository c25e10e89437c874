// The man page text of `syncpod inspecti` (man/syncpod-inspecti.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { inspectDoc, type CommandDoc } from '../../man-text';

export const man: CommandDoc = inspectDoc(
  'one or more images',
  'ImageStatus on the image endpoint',
  [
    { what: "An image's size, tags and config:", command: 'syncpod inspecti docker.io/library/busybox:1.36' },
    {
      what: 'The pinned flag of every image:',
      command: "syncpod inspecti -f reference=. -o go-template --template '{{.status.repoTags}} {{.status.pinned}}'",
    },
  ],
  'images',
);
