// One error type for everything a user can cause or meet: its message is the one line shown
// (exit code 1, no stack unless --debug).

export class SyncpodError extends Error {
  /** Process exit code; 1 for every user-facing error. */
  readonly exitCode: number;
  constructor(message: string, options?: { cause?: unknown; exitCode?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SyncpodError';
    this.exitCode = options?.exitCode ?? 1;
  }
}

/** The first line of any thrown value's message, for one-line error output. */
export function errorLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return line.trim();
}

/**
 * The stack `--debug` prints. The bundle's code caches are written while the build still sits in its
 * temporary directory (scripts/build.mjs: dist.building-PID, renamed to dist/ when complete), and V8 keeps
 * the file names a cache was made with; frames name the directory the bundle runs from instead.
 */
export function debugStack(stack: string, bundleDir: string): string {
  return stack.replace(/(?:\/[^\s():]*)?\/dist\.building-\d+\//g, `${bundleDir}/`);
}
