// The commander program: global options, then one subcommand per row of the command table
// (src/cli/command-table.ts). man pages and shell completions are generated from this same program
// (src/cli/man-pages.ts, src/cli/commands/completion/run.ts).
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { COMMANDS, type CommandEntry } from './command-table';
import { VERSION } from '../version';

function rootDef() {
  return new Command('syncpod')
    .description(
      "Look at, plan and execute kubelet's SyncPod on a node, over any CRI runtime socket (containerd, CRI-O, cri-dockerd).\nRead commands use crictl's names, flags and JSON shapes.",
    )
    .version(VERSION, '--version', "print syncpod's own version")
    .enablePositionalOptions()
    .option(
      '-r, --runtime-endpoint <endpoint>',
      'CRI runtime endpoint (unix:///path or a socket path); env CONTAINER_RUNTIME_ENDPOINT',
    )
    .option(
      '-i, --image-endpoint <endpoint>',
      'CRI image endpoint (default: the runtime endpoint); env IMAGE_SERVICE_ENDPOINT',
    )
    .option(
      '-t, --timeout <duration>',
      'deadline of each CRI call, e.g. 2s, 500ms (default: 2s, or timeout in the config file)',
    )
    .option('-c, --config <file>', 'client config file (default /etc/crictl.yaml); env CRI_CONFIG_FILE')
    .option('-D, --debug', 'print debug lines and stack traces to stderr')
    .option('--api <version>', 'force the CRI API version: v1 or v1alpha2 (default: negotiate)')
    .option(
      '--host-root <dir>',
      "where the node's root filesystem is mounted (a DaemonSet's /host): sockets, kubelet, CNI, log and /proc paths are read under it; env SYNCPOD_HOST_ROOT",
    )
    .option('--no-color', 'never colour the output (also NO_COLOR)')
    .option(
      '--no-node-profile',
      "do not read the running kubelet's command line, config and version for node settings (see `syncpod node`)",
    )
    .showHelpAfterError(false)
    .addHelpText(
      'after',
      '\nEach command has a man page with examples, exit status, environment and files: man syncpod-COMMAND,\nthis overview is man syncpod (in the source tree: man ./man/syncpod-COMMAND.1).',
    );
}

/** Where help points for what it leaves out (the pages are man/, written by `npm run man`). */
function manPointer(page: string): string {
  return `Examples, exit status, environment and files: man ${page} (in the source tree: man ./man/${page}.1).`;
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

/** What argv asks of the root, read the way commander reads the root's options. */
export interface RootArgv {
  /** The command argv names (the first argument that is not a root option or its value). */
  command?: string;
  /** `--version` is among the root options: commander prints the version and stops there. */
  version: boolean;
  /** False when argv holds what this reading cannot be sure of (combined short flags, `--`, an unknown option). */
  certain: boolean;
}

export function readRootArgv(program: Program, argv: readonly string[]): RootArgv {
  const takesValue = new Map<string, boolean>();
  for (const o of program.options) {
    for (const flag of [o.long, o.short]) if (flag) takesValue.set(flag, o.required || o.optional);
  }
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--' || a === '-') return { version, certain: false };
    if (!a.startsWith('-')) return { command: a, version, certain: true };
    const flag = a.startsWith('--') ? a.split('=')[0]! : a;
    const value = takesValue.get(flag);
    if (value === undefined) return { version, certain: false }; // combined short flags, -rVALUE, an unknown option
    if (flag === '--version') version = true;
    if (value && !a.includes('=')) i++;
  }
  return { version, certain: true };
}

/**
 * The program with the commands of the table. Given the run's `argv`, it defines only what the run
 * needs: nothing for `--version`, and only the command argv names when it can be read off for sure
 * (readRootArgv); any other run gets every command. Defining all forty commands' flags costs
 * several milliseconds at every start. Without `argv` (man pages, completions): every command.
 */
export function buildProgram(runner: ActionRunner, output?: ProgramOutput, argv?: readonly string[]): Program {
  const program = rootDef();
  if (output) {
    // Before the subcommands are added, so that they inherit it.
    program.exitOverride();
    program.configureOutput({
      writeOut: output.writeOut,
      writeErr: output.writeErr,
      // One line: commander's "(Did you mean --x?)" goes on the same line.
      outputError: (s, write) =>
        write(
          `syncpod: ${s
            .replace(/^error: /, '')
            .trim()
            .replace(/\s*\n\s*/g, ' ')}\n`,
        ),
    });
  }
  let entries: readonly CommandEntry[] = COMMANDS;
  if (argv) {
    const root = readRootArgv(program, argv);
    const named =
      root.command === undefined
        ? undefined
        : COMMANDS.find((e) => e.name === root.command || e.aliases.includes(root.command!));
    if (root.certain && root.version) entries = [];
    else if (root.certain && named) entries = [named];
  }
  for (const e of entries) {
    const sub = program.command(e.name, { hidden: e.hidden }) as Command<[], {}, {}>;
    if (e.aliases.length) sub.aliases(e.aliases);
    if (!e.hidden) sub.addHelpText('after', `\n${manPointer(`syncpod-${e.name}`)}`);
    e.define(sub).action(async function (this: Command<unknown[], {}, {}>, ...args: unknown[]) {
      await runner(e, this, args);
    });
  }
  return program;
}

/** The whole program with every command defined and no action (completion, man pages). */
export function programForDocs(): CommandUnknownOpts {
  return buildProgram(async () => {});
}
