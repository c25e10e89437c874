// `syncpod update`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { int, type Cmd, type OptionsOf } from '../../command-flags';

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
