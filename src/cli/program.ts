// The commander program: global options, then one subcommand per row of the command table
// (src/cli/commands.ts). man pages and shell completions are generated from this same program
// (src/cli/docs.ts).
import { Command } from '@commander-js/extra-typings';
import { COMMANDS, type CommandEntry } from './commands';
import { VERSION } from '../version';

function rootDef() {
  return new Command('syncpod')
    .description(
      "Look at, plan and execute kubelet's SyncPod on a node, over any CRI runtime socket (containerd, CRI-O, cri-dockerd).\nRead commands use crictl's names, flags and JSON shapes.",
    )
    .version(VERSION, '--version', "print syncpod's own version")
    .enablePositionalOptions()
    .option('-r, --runtime-endpoint <endpoint>', 'CRI runtime endpoint (unix:///path or a socket path); env CONTAINER_RUNTIME_ENDPOINT')
    .option('-i, --image-endpoint <endpoint>', 'CRI image endpoint (default: the runtime endpoint); env IMAGE_SERVICE_ENDPOINT')
    .option('-t, --timeout <duration>', 'deadline of each CRI call, e.g. 2s, 500ms (default: 2s, or timeout in the config file)')
    .option('-c, --config <file>', 'client config file (default /etc/crictl.yaml); env CRI_CONFIG_FILE')
    .option('-D, --debug', 'print debug lines and stack traces to stderr')
    .option('--api <version>', 'force the CRI API version: v1 or v1alpha2 (default: negotiate)')
    .option('--host-root <dir>', "where the node's root filesystem is mounted (a DaemonSet's /host): sockets, kubelet, CNI, log and /proc paths are read under it; env SYNCPOD_HOST_ROOT")
    .option('--no-color', 'never colour the output (also NO_COLOR)')
    .option('--no-node-profile', "do not read the running kubelet's command line, config and version for node settings (see `syncpod node`)")
    .showHelpAfterError(false);
}

export type GlobalOptions = ReturnType<ReturnType<typeof rootDef>['opts']>;
export type Program = ReturnType<typeof rootDef>;

/** Set by main.ts: runs the invoked command's entry. */
export type ActionRunner = (entry: CommandEntry, cmd: Command<unknown[], {}, {}>, args: unknown[]) => Promise<void>;

/** Output and error handling shared by the program and every subcommand (set before they exist). */
export interface ProgramOutput {
  writeOut(s: string): void;
  writeErr(s: string): void;
}

/**
 * The program with every command of the table. `define: 'invoked'` gives each command its name and
 * aliases only and completes the one commander dispatches to, just before it parses it: defining
 * all forty commands' flags costs several milliseconds at every start. Root help (`--help`,
 * `help`, no command) lists every command's usage, so it needs `define: 'all'`, as do the man
 * pages and completions.
 */
export function buildProgram(runner: ActionRunner, output?: ProgramOutput, define: 'all' | 'invoked' = 'all'): Program {
  const program = rootDef();
  if (output) {
    // Before the subcommands are added, so that they inherit it.
    program.exitOverride();
    program.configureOutput({
      writeOut: output.writeOut,
      writeErr: output.writeErr,
      // One line: commander's "(Did you mean --x?)" goes on the same line.
      outputError: (s, write) => write(`syncpod: ${s.replace(/^error: /, '').trim().replace(/\s*\n\s*/g, ' ')}\n`),
    });
  }
  const pending = new Map<unknown, () => void>();
  for (const e of COMMANDS) {
    const sub = program.command(e.name, { hidden: e.hidden }) as Command<[], {}, {}>;
    if (e.aliases.length) sub.aliases(e.aliases);
    const complete = () => {
      e.define(sub).action(async function (this: Command<unknown[], {}, {}>, ...args: unknown[]) {
        await runner(e, this, args);
      });
    };
    if (define === 'all') complete();
    else pending.set(sub, complete);
  }
  if (define === 'invoked') {
    program.hook('preSubcommand', (_root, sub) => {
      pending.get(sub)?.();
      pending.delete(sub);
    });
  }
  return program;
}
