// Definitions of the runtime and container operations (crictl's update, checkpoint,
// runtime-config, events, config). The table is src/cli/commands.ts.
import { collect, int, type Cmd, type OptionsOf } from './command-flags';

// ---------------------------------------------------------------------------------------------
// runtime and container operations

export const updateDef = (c: Cmd) =>
  c
    .description('Update the resources of one or more running containers (zero leaves a value unchanged)')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('--cpu-period <usecs>', 'CPU CFS period (hard cap period), in microseconds', int('--cpu-period'))
    .option('--cpu-quota <usecs>', 'CPU CFS quota: CPU time allowed per period, in microseconds', int('--cpu-quota'))
    .option('--cpu-share <shares>', 'CPU shares (relative weight)', int('--cpu-share'))
    .option('--cpuset-cpus <cpus>', 'CPUs to use, e.g. 0-2,4')
    .option('--cpuset-mems <nodes>', 'memory nodes to use, e.g. 0,1')
    .option('--memory <bytes>', 'memory limit in bytes', int('--memory'));
export type UpdateOptions = OptionsOf<typeof updateDef>;

export const checkpointDef = (c: Cmd) =>
  c
    .description('Checkpoint one or more running containers (CheckpointContainer; CRIU on the runtime side)')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('-e, --export <archive>', 'the archive the runtime exports the checkpoint to');
export type CheckpointOptions = OptionsOf<typeof checkpointDef>;

export const runtimeConfigDef = (c: Cmd) =>
  c
    .description("Display the runtime's configuration as it reports it to kubelet (RuntimeConfig: the cgroup driver)")
    .option('-o, --output <format>', 'output format: table (crictl\'s "cgroup driver:" line), json or yaml', 'table');
export type RuntimeConfigOptions = OptionsOf<typeof runtimeConfigDef>;

export const eventsDef = (c: Cmd) =>
  c
    .description('Stream container events (GetContainerEvents) until Ctrl-C')
    .option('-o, --output <format>', 'json (each event indented, as crictl 1.37) or yaml (each event, then an empty line)', 'json');
export type EventsOptions = OptionsOf<typeof eventsDef>;

export const configDef = (c: Cmd) =>
  c
    .description("Get and set options in crictl's client config file (-c, CRI_CONFIG_FILE or /etc/crictl.yaml)")
    .argument('[key]', 'old form: config KEY VALUE sets KEY')
    .argument('[value]', 'the value for KEY')
    .option('--get <key>', 'print the value of an option')
    .option('--set <key=value>', 'set options: key=value[,key=value...] (repeatable)', collect, [] as string[])
    .option('--list', 'print every option and its value');
export type ConfigOptions = OptionsOf<typeof configDef>;
