// The command tree: names, arguments, flags and help text, with crictl's vocabulary. Actions are
// loaded lazily (only the module of the command that runs is evaluated). man pages and shell
// completions are generated from this same definition (src/cli/docs.ts).
import { Command, Option } from 'commander';
import type { Context } from './context';
import { VERSION } from '../version';

export type CommandHandler = (ctx: Context, args: string[], opts: Record<string, any>) => Promise<number | void>;
type Loader = () => Record<string, unknown>;

/** Set by main.ts: turns the invoked command into a Context and runs the handler. */
export interface ActionRunner {
  run(cmd: Command, load: Loader, handler: string, args: unknown[]): Promise<void>;
}

const OUTPUT_LIST = 'output format: table, json or yaml';
const OUTPUT_INSPECT = 'output format: json, yaml or table';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
function int(name: string) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new (require('commander').InvalidArgumentError)(`${name} must be a whole number`);
    return Number(value);
  };
}

export function buildProgram(runner: ActionRunner): Command {
  const program = new Command('syncpod');
  program
    .description(
      "Look at, plan and execute kubelet's SyncPod on a node, over any CRI runtime socket (containerd, CRI-O, cri-dockerd).\nRead commands use crictl's names, flags and JSON shapes.",
    )
    .version(VERSION, '--version', 'print syncpod\'s own version')
    .enablePositionalOptions()
    .option('-r, --runtime-endpoint <endpoint>', 'CRI runtime endpoint (unix:///path or a socket path); env CONTAINER_RUNTIME_ENDPOINT')
    .option('-i, --image-endpoint <endpoint>', 'CRI image endpoint (default: the runtime endpoint); env IMAGE_SERVICE_ENDPOINT')
    .option('-t, --timeout <duration>', 'deadline of each CRI call, e.g. 2s, 500ms (default: 2s, or timeout in the config file)')
    .option('-c, --config <file>', 'client config file (default /etc/crictl.yaml); env CRI_CONFIG_FILE')
    .option('-D, --debug', 'print debug lines and stack traces to stderr')
    .option('--api <version>', 'force the CRI API version: v1 or v1alpha2 (default: negotiate)')
    .option('--no-color', 'never colour the output (also NO_COLOR)')
    .showHelpAfterError(false);

  const action = (load: Loader, handler: string) =>
    async function (this: Command, ...args: unknown[]) {
      await runner.run(this, load, handler, args);
    };
  const runtimeCmds: Loader = () => require('./runtime');
  const sandboxCmds: Loader = () => require('./sandbox');
  const containerCmds: Loader = () => require('./container');
  const imageCmds: Loader = () => require('./image');
  const docsCmds: Loader = () => require('./docs');

  program
    .command('version')
    .description('Display runtime version information (and the CRI API version in use)')
    .option('-o, --output <format>', 'output format: text, json or yaml', 'text')
    .action(action(runtimeCmds, 'version'));

  program
    .command('info')
    .description('Display information of the container runtime: status conditions and verbose info')
    .option('-o, --output <format>', 'output format: json or yaml', 'json')
    .option('-q, --quiet', 'do not show verbose information')
    .action(action(runtimeCmds, 'info'));

  program
    .command('pods')
    .description('List pod sandboxes')
    .option('--id <id>', 'filter by pod id (prefix)')
    .option('--name <regex>', 'filter by pod name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-s, --state <state>', 'filter by pod state: ready or notready')
    .option('--label <key=value>', 'filter by label (repeatable)', collect, [])
    .option('-v, --verbose', 'show verbose info for pods')
    .option('-q, --quiet', 'list only pod IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created pod')
    .option('-n, --last <n>', 'show the last n recently created pods (0 for unlimited)', int('--last'), 0)
    .option('--no-trunc', 'show output without truncating the ID')
    .action(action(sandboxCmds, 'pods'));

  program
    .command('inspectp')
    .description('Display the status of one or more pod sandboxes')
    .argument('<pod-id...>', 'pod sandbox IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('-q, --quiet', 'do not show verbose information')
    .action(action(sandboxCmds, 'inspectp'));

  program
    .command('ps')
    .description('List containers')
    .option('-a, --all', 'show all containers (default: running only)')
    .option('--id <id>', 'filter by container id (prefix)')
    .option('--name <regex>', 'filter by container name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-p, --pod <pod-id>', 'filter by pod id (prefix)')
    .option('--image <image>', 'filter by container image')
    .option('-s, --state <state>', 'filter by container state: created, running, exited or unknown')
    .option('--label <key=value>', 'filter by label (repeatable)', collect, [])
    .option('-v, --verbose', 'show verbose information for containers')
    .option('-q, --quiet', 'only display container IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created container (includes all states)')
    .option('-n, --last <n>', 'show the last n recently created containers, all states (0 for unlimited)', int('--last'), 0)
    .option('--no-trunc', 'show output without truncating the ID')
    .action(action(containerCmds, 'ps'));

  program
    .command('inspect')
    .description('Display the status of one or more containers')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('-q, --quiet', 'do not show verbose information')
    .action(action(containerCmds, 'inspect'));

  program
    .command('logs')
    .description("Fetch the logs of a container from its CRI log file")
    .argument('<container-id>', 'container ID or unique prefix')
    .option('-f, --follow', 'follow the log until the container exits')
    .option('--tail <n>', 'number of lines to show from the end (-1 for all)', int('--tail'), -1)
    .option('--since <time>', 'show logs since a timestamp (RFC3339) or a relative time like 42m')
    .option('-t, --timestamps', 'show timestamps')
    .option('-p, --previous', "print the logs of the container's previous instance (same pod, same name)")
    .action(action(containerCmds, 'logs'));

  program
    .command('images')
    .aliases(['image', 'img'])
    .description('List images')
    .argument('[repository[:tag]]', 'only images matching this reference')
    .option('-q, --quiet', 'only show image IDs')
    .option('-v, --verbose', 'show verbose info for images')
    .option('--digests', 'show digests')
    .option('--no-trunc', 'show output without truncating the ID')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .action(action(imageCmds, 'images'));

  program
    .command('inspecti')
    .description('Return the status of one or more images')
    .argument('<image...>', 'image IDs, references or unique ID prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('-q, --quiet', 'do not show verbose information')
    .action(action(imageCmds, 'inspecti'));

  program
    .command('completion')
    .description('Print a shell completion script')
    .argument('<shell>', 'bash, zsh or fish')
    .action(action(docsCmds, 'completion'));

  program.command('__warm', { hidden: true }).action(action(() => require('./warm'), 'warm'));

  return program;
}

export { Option };
