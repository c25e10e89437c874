// One error type for everything a user can cause or meet: its message is the one line shown
// (exit code 1, no stack unless --debug).

/**
 * An input the user can give that an error says is missing. The pure layers (src/kubelet, src/plan)
 * name the input, never the command line's flag for it: the command line says how each is given
 * (src/cli/input-flags.ts) and installs that with `nameUserInputs` before a command runs.
 */
export type UserInput =
  | 'configmap-secret-values'
  | 'configmap-secret-value'
  | 'runtime-handler'
  /** A ConfigMap's keys, by the object's name. */
  | 'configmap'
  /** A Secret's keys, by the object's name. */
  | 'secret'
  /** A service account's token, by the account's name. */
  | 'service-account-token'
  /** Leaving a volume out, by the volume's name (without a name: how the skipping was asked for). */
  | 'skip-volume'
  /** kubelet's allowedUnsafeSysctls. */
  | 'allowed-unsafe-sysctls';

let howToGive: (input: UserInput, name?: string) => string | undefined = () => undefined;

/** Installs how the running program's user gives each input (appended to the error that needs it). */
export function nameUserInputs(how: (input: UserInput, name?: string) => string | undefined): void {
  howToGive = how;
}

/**
 * How the user gives `input` (for the object or volume `name`), when the running program says so;
 * for texts that name the remedy inside their sentence rather than after it.
 */
export function howToGiveInput(input: UserInput, name?: string): string | undefined {
  return howToGive(input, name);
}

/** " (how)" to end a sentence with, when the running program says how the user gives `input`; else ''. */
export function howToGiveInParens(input: UserInput, name?: string): string {
  const how = howToGive(input, name);
  return how === undefined ? '' : ` (${how})`;
}

export class SyncpodError extends Error {
  /** Process exit code; 1 for every user-facing error. */
  readonly exitCode: number;
  /** The input that would have avoided the error, when the user can give it. */
  readonly needs?: UserInput;
  constructor(message: string, options?: { cause?: unknown; exitCode?: number; needs?: UserInput }) {
    const how = options?.needs === undefined ? undefined : howToGive(options.needs);
    super(how ? `${message}: ${how}` : message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SyncpodError';
    this.exitCode = options?.exitCode ?? 1;
    if (options?.needs !== undefined) this.needs = options.needs;
  }
}

/** The first line of any thrown value's message, for one-line error output. */
export function errorLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return line.trim();
}

/**
 * A system call's failure as the C library words it ("no such file or directory"), without Node's
 * "ENOENT: " head and ", scandir '/x'" tail (the caller names the path once); other errors as errorLine.
 */
export function systemErrorText(err: unknown): string {
  const e = err as { code?: unknown; syscall?: unknown };
  const line = errorLine(err);
  if (typeof e?.code !== 'string' || typeof e?.syscall !== 'string') return line;
  return line.replace(/^[A-Z0-9_]+: /, '').replace(new RegExp(`, ${e.syscall}( '.*')?$`), '');
}

/**
 * The stack `--debug` prints. The bundle's code caches are written while the build still sits in its
 * temporary directory (scripts/build.mjs: dist.building-PID, renamed to dist/ when complete), and V8 keeps
 * the file names a cache was made with; frames name the directory the bundle runs from instead.
 */
export function debugStack(stack: string, bundleDir: string): string {
  return stack.replace(/(?:\/[^\s():]*)?\/dist\.building-\d+\//g, `${bundleDir}/`);
}
