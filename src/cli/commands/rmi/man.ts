// The man page text of `syncpod rmi` (man/syncpod-rmi.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { IMAGE_ENV, PROFILE_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Removes images (RemoveImage on the image endpoint) by reference, ID or unique ID prefix, or every image with -a (a preview goes to stderr first); an image with several tags loses all of them (a warning says so).',
    "--prune (-q, crictl's short flag) removes every image the kubelet would not miss, which crictl's prune does not know: pinned images, images used by any container in any state, and the runtime's sandbox (pause) image stay; with --node (and --static-pod-path, --pods FILE) so do the images the node's desired pods name. If a desired pod cannot be read, nothing is removed. --dry-run prints each image's verdict and why, and removes nothing.",
  ],
  exitStatus: [
    ['0', 'Every image named (or every prunable one) was removed, or --dry-run.'],
    [
      '1',
      'An error: no such image, an ambiguous prefix, a removal the runtime refused; with --prune, a desired pod could not be read (nothing removed) or a removal failed (the others went).',
    ],
  ],
  environment: IMAGE_ENV,
  files: [...PROFILE_FILES, 'staticPods'],
  examples: [
    { what: 'Remove one image:', command: 'syncpod rmi docker.io/library/busybox:1.36' },
    {
      what: 'What would a prune remove, and why does the rest stay?',
      command: 'syncpod rmi --prune --node --dry-run',
    },
    {
      what: 'Prune, keeping the images the static pods and the bound pods name:',
      command:
        'kubectl get pods -A --field-selector spec.nodeName=$(hostname) -o yaml > pods.yaml\nsyncpod rmi --prune --node --pods pods.yaml',
    },
  ],
  seeAlso: ['images', 'pull', 'doctor', 'crictl(1)'],
};
