// The man page text of `syncpod ps` (man/syncpod-ps.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { IMAGE_ENV, listDoc, type CommandDoc } from '../../man-text';

export const man: CommandDoc = listDoc(
  'the containers',
  'ListContainers',
  [
    { what: 'The running containers:', command: 'syncpod ps' },
    { what: 'Every container of one pod sandbox, in every state:', command: 'syncpod ps -a -p 4dff5610bdd4f' },
    { what: 'The exited containers, with full IDs:', command: 'syncpod ps -a -s exited --no-trunc' },
  ],
  [
    'Without -a only running containers are listed. -p/--pod takes a sandbox ID prefix, --name and --namespace regular expressions; -r shows each image by its first tag (an ImageStatus call per image) instead of its ID.',
  ],
  IMAGE_ENV,
);
