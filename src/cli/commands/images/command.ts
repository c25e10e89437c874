// `syncpod images`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { OUTPUT_LIST, stringSlice, type Cmd, type OptionsOf } from '../../command-flags';

export const imagesDef = (c: Cmd) =>
  c
    .description('List images')
    .argument('[repository[:tag]]', 'only images matching this reference')
    .option('-q, --quiet', 'only show image IDs')
    .option('-v, --verbose', 'show verbose info for images')
    .option('--digests', 'show digests')
    .option('--pinned', 'show whether the image is pinned (PINNED column)')
    .option('--no-trunc', 'show output without truncating the ID')
    .option(
      '-f, --filter <condition>',
      'dangling=true|false, reference=REGEX, before=IMAGE, since=IMAGE (repeatable, or comma-separated)',
      stringSlice,
      [] as string[],
    )
    .option('-o, --output <format>', OUTPUT_LIST, 'table');

export type ImagesOptions = OptionsOf<typeof imagesDef>;
