// Colour is a port: renderers receive one palette and never look at the terminal or environment.
// The one decision (chooseColours: a terminal, no NO_COLOR, no --no-color) is made once per
// invocation by src/cli/context.ts, for stdout and for stderr.

export interface Colours {
  /** Whether this palette paints at all (false for plainColours). */
  readonly enabled: boolean;
  /** Column headers of tables, section headings. */
  header(text: string): string;
  /** A state that is fine (Ready, Running). */
  good(text: string): string;
  /** A state that is finished or broken (NotReady, Exited). */
  bad(text: string): string;
  /** A state in between (Created, Unknown), a change that is neither (remove, wait). */
  pending(text: string): string;
  /** Secondary text (assumptions, notes). */
  dim(text: string): string;
}

const same = (text: string): string => text;

/** No escape codes at all: pipes, files, NO_COLOR, --no-color, tests. */
export const plainColours: Colours = { enabled: false, header: same, good: same, bad: same, pending: same, dim: same };

type ChalkInstance = import('chalk').ChalkInstance;
let terminalChalk: ChalkInstance | undefined;

/**
 * A chalk fixed at 16 colours: it never probes the terminal or the environment itself (the caller
 * decided with chooseColours). Loaded on first use so plain output never evaluates chalk.
 */
function paint(): ChalkInstance {
  terminalChalk ??= new (require('chalk') as typeof import('chalk')).Chalk({ level: 1 });
  return terminalChalk;
}

/** ANSI colours for a terminal (bold headers; green, red and yellow states; dim notes). */
export const ansiColours: Colours = {
  enabled: true,
  header: (text) => paint().bold(text),
  good: (text) => paint().green(text),
  bad: (text) => paint().red(text),
  pending: (text) => paint().yellow(text),
  dim: (text) => paint().dim(text),
};

export interface ColourInputs {
  /** Whether stdout is a terminal. */
  isTTY: boolean;
  /** The NO_COLOR environment variable as read by the caller (undefined when unset). */
  noColorEnv: string | undefined;
  /** Whether --no-color was given. */
  noColorFlag: boolean;
}

/** Colour only on a terminal, and never when NO_COLOR is set to a non-empty value or --no-color is given. */
export function chooseColours(inputs: ColourInputs): Colours {
  if (!inputs.isTTY || inputs.noColorFlag) return plainColours;
  if (inputs.noColorEnv !== undefined && inputs.noColorEnv !== '') return plainColours;
  return ansiColours;
}
