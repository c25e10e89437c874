// `syncpod config`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { collect, type Cmd, type OptionsOf } from '../../command-flags';

export const configDef = (c: Cmd) =>
  c
    .description("Get and set options in crictl's client config file (-c, CRI_CONFIG_FILE or /etc/crictl.yaml)")
    .argument('[key]', 'old form: config KEY VALUE sets KEY')
    .argument('[value]', 'the value for KEY')
    .option('--get <key>', 'print the value of an option')
    .option('--set <key=value>', 'set options: key=value[,key=value...] (repeatable)', collect, [] as string[])
    .option('--list', 'print every option and its value');

export type ConfigOptions = OptionsOf<typeof configDef>;
