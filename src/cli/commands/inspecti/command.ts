// `syncpod inspecti`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { OUTPUT_INSPECT, TEMPLATE, stringSlice, type Cmd, type OptionsOf } from '../../command-flags';

export const inspectiDef = (c: Cmd) =>
  c
    .description('Return the status of one or more images (without arguments: of every image the filters keep)')
    .argument('[image...]', 'image IDs, references or unique ID prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information')
    .option('--name <repository[:tag]>', 'without arguments: only images matching this reference')
    .option(
      '-f, --filter <condition>',
      'without arguments: dangling=true|false, reference=REGEX, before=IMAGE, since=IMAGE (repeatable, or comma-separated)',
      stringSlice,
      [] as string[],
    );

export type InspectiOptions = OptionsOf<typeof inspectiDef>;
