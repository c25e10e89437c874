// The man page text of `syncpod images` (man/syncpod-images.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { IMAGE_ENV, listDoc, type CommandDoc } from '../../man-text';

export const man: CommandDoc = listDoc(
  'the images',
  'ListImages on the image endpoint',
  [
    { what: 'Every image, with digests:', command: 'syncpod images --digests' },
    { what: 'Images no tag names:', command: 'syncpod images -f dangling=true' },
    { what: "Which images are pinned (kept by the kubelet's image GC):", command: 'syncpod images --pinned' },
  ],
  [
    "A REPOSITORY[:TAG] argument keeps the images of that reference; -f/--filter takes dangling=, reference=, before= and since=. -v prints crictl's verbose block per image.",
  ],
  IMAGE_ENV,
);
