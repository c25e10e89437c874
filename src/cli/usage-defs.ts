// Definitions of the streaming commands (exec, attach, port-forward) and the resource-usage
// commands (stats, statsp, imagefsinfo), crictl's names and flags. The table is src/cli/commands.ts.
import type { Command } from '@commander-js/extra-typings';
import { int, stringSlice, OUTPUT_INSPECT, OUTPUT_LIST, TEMPLATE, type Cmd, type OptionsOf } from './command-flags';

// ---------------------------------------------------------------------------------------------
// streaming

/** Names instead of an ID: kubectl's habit (`--pod NAME -n NS --container NAME`). */
function targetOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .option('--pod <name>', 'the newest ready pod sandbox with this name (instead of an ID)')
    .option('-n, --namespace <namespace>', 'namespace of --pod (default "default")')
    .option('--container <name>', 'container name in --pod (default: the only one)');
}

export const execDef = (c: Cmd) =>
  targetOptions(
    c
      .description(
        "Run a command in a running container (streaming; -s runs it with ExecSync). The exit code is the command's",
      )
      .argument('[container-id]', 'container ID or unique prefix (leave out with --pod)')
      .argument('[command...]', 'the command and its arguments')
      .option('-i, --interactive', 'keep stdin open and send it to the command')
      .option('-t, --tty', 'allocate a terminal (local terminal in raw mode, size changes forwarded)')
      .option('-s, --sync', 'run with ExecSync: output after the command ended')
      .option('--timeout <duration>', 'with -s: seconds (or a duration like 30s) before the runtime stops the command'),
  ).passThroughOptions();
export type ExecOptions = OptionsOf<typeof execDef>;

export const attachDef = (c: Cmd) =>
  targetOptions(
    c
      .description('Attach to the output (and with -i the input) of a running container')
      .argument('[container-id]', 'container ID or unique prefix (leave out with --pod)')
      .option('-i, --interactive', 'send stdin to the container')
      .option('--stdin', "same as -i (crictl's long name)")
      .option('-t, --tty', 'the container has a terminal: local terminal in raw mode'),
  );
export type AttachOptions = OptionsOf<typeof attachDef>;

export const portForwardDef = (c: Cmd) =>
  c
    .description('Forward local ports to a pod sandbox: [LOCAL:]REMOTE, :REMOTE for any free local port; Ctrl-C ends')
    .argument('<pod-id-and-ports...>', 'pod sandbox ID or unique prefix (leave out with --pod), then the ports')
    .option('--address <addresses>', 'local addresses to listen on, comma-separated', '127.0.0.1')
    .option('--pod <name>', 'the newest ready pod sandbox with this name (instead of an ID)')
    .option('-n, --namespace <namespace>', 'namespace of --pod (default "default")');
export type PortForwardOptions = OptionsOf<typeof portForwardDef>;

// ---------------------------------------------------------------------------------------------
// resource usage

function statsOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .option('--label <key=value>', 'filter by label (repeatable, or comma-separated)', stringSlice, [] as string[])
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-s, --seconds <n>', 'sample duration for CPU usage, in seconds', int('--seconds'), 1)
    .option('-w, --watch', 'redraw every 500 ms until Ctrl-C');
}

export const statsDef = (c: Cmd) =>
  statsOptions(
    c
      .description('List container resource usage: CPU % over a sample, memory working set, writable layer')
      .argument('[container-id]', 'container ID or prefix (same as --id)')
      .option('-a, --all', 'show all containers (default: those using CPU or memory)')
      .option('--id <id>', 'filter by container ID')
      .option('-p, --pod <pod-id>', 'filter by pod ID'),
  );
export type StatsOptions = OptionsOf<typeof statsDef>;

export const statspDef = (c: Cmd) =>
  statsOptions(
    c
      .description('List pod resource usage: CPU % over a sample and memory working set')
      .argument('[pod-id]', 'pod sandbox ID or prefix (same as --id)')
      .option('--id <id>', 'filter by pod ID'),
  );
export type StatspOptions = OptionsOf<typeof statspDef>;

export const imagefsinfoDef = (c: Cmd) =>
  c
    .description("Return the image filesystem info: the runtime's image store mountpoint, bytes and inodes used")
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE);
export type ImagefsinfoOptions = OptionsOf<typeof imagefsinfoDef>;
