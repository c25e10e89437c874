// Colour is a port: renderers receive one of these and never look at the terminal or environment.

export interface Colours {
  /** Column headers of list tables. */
  header(text: string): string;
  /** A state that is fine (Ready, Running). */
  good(text: string): string;
  /** A state that is finished or broken (NotReady, Exited). */
  bad(text: string): string;
  /** A state in between (Created, Unknown). */
  pending(text: string): string;
}

const same = (text: string): string => text;

/** No escape codes at all: pipes, files, NO_COLOR, --no-color, tests. */
export const plainColours: Colours = { header: same, good: same, bad: same, pending: same };

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

/** ANSI colours for a terminal (bold headers; green, red and yellow states). */
export const ansiColours: Colours = {
  header: (text) => paint().bold(text),
  good: (text) => paint().green(text),
  bad: (text) => paint().red(text),
  pending: (text) => paint().yellow(text),
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
