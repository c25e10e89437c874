// `syncpod version`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const versionDef = (c: Cmd) =>
  c
    .description('Display runtime version information (and the CRI API version in use)')
    .option('-o, --output <format>', 'output format: text, json or yaml', 'text');

export type VersionOptions = OptionsOf<typeof versionDef>;
