// Composition root: argv -> commander -> Context -> command handler. The only place that decides
// the exit code; errors become one line on stderr (a stack only with --debug).
import { buildProgram, programForDocs, type ActionRunner, type GlobalOptions } from './cli/program';
import { COMMANDS, loadContext } from './cli/command-table';
import type { Context, Io } from './cli/context';
import { nameInputFlags } from './cli/input-flags';
import { SyncpodError, debugStack, errorLine } from './errors';
import { invocationSecrets } from './render/secret-mask';

function wantsDebug(argv: string[], env: Record<string, string | undefined>): boolean {
  return argv.includes('-D') || argv.includes('--debug') || env.SYNCPOD_DEBUG === '1';
}

/** Runs syncpod with `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  nameInputFlags();
  let exitCode = 0;
  let ctx: Context | undefined;
  const run: ActionRunner = async (entry, cmd, args) => {
    // Global options come from the program itself: a subcommand's own option of the same name
    // (net-setup --timeout, stop --timeout) must not replace the CRI deadline.
    let root = cmd as { parent: unknown; opts(): unknown };
    while (root.parent) root = root.parent as typeof root;
    const globals = root.opts() as GlobalOptions;
    const [handler, createContext] = await Promise.all([entry.load(), loadContext()]);
    ctx = createContext(
      io,
      {
        runtimeEndpoint: globals.runtimeEndpoint,
        imageEndpoint: globals.imageEndpoint,
        timeout: globals.timeout,
        config: globals.config,
        debug: globals.debug,
        api: globals.api,
        hostRoot: globals.hostRoot,
        noColor: globals.color === false,
        noNodeProfile: globals.nodeProfile === false,
      },
      { loaders: COMMANDS.map((c) => c.load), full: programForDocs, run: main },
    );
    // --show-secrets (sync, create, pull): Secret values are printed where they occur.
    if ((cmd.opts() as { showSecrets?: boolean }).showSecrets === true) invocationSecrets.reveal();
    const positional = args
      .slice(0, cmd.registeredArguments.length)
      .flatMap((a) => (a === undefined ? [] : Array.isArray(a) ? (a as string[]) : [String(a)]));
    const code = await (handler as (c: Context, a: string[], o: unknown) => Promise<number | void>)(
      ctx,
      positional,
      cmd.opts(),
    );
    if (typeof code === 'number') exitCode = code;
  };
  // Only the invoked command is defined when argv names it for sure (see buildProgram).
  const writeOut = (s: string) => (io.writeOut ? io.writeOut(s) : io.stdout.write(s));
  const program = buildProgram(run, { writeOut, writeErr: (s) => io.stderr.write(s) }, argv);
  try {
    if (argv.length === 0) {
      writeOut(program.helpInformation());
      return 0;
    }
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    const e = err as { code?: string; exitCode?: number };
    if (typeof e.code === 'string' && e.code.startsWith('commander.')) {
      // Help and --version exit 0; usage errors were already printed by commander.
      return e.exitCode ?? 1;
    }
    // The error line leaves through the same mask as all other output (a Secret's value quoted
    // in a runtime's message or a path).
    if (wantsDebug(argv, io.env) && err instanceof Error) {
      io.stderr.write(invocationSecrets.mask(`${err.stack ? debugStack(err.stack, __dirname) : err.message}\n`));
    } else {
      io.stderr.write(invocationSecrets.mask(`syncpod: ${errorLine(err)}\n`));
    }
    return err instanceof SyncpodError ? err.exitCode : 1;
  } finally {
    ctx?.close();
  }
}
