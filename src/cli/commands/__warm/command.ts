// `syncpod __warm` (hidden): the build's warm-up run. No flags; the handler is ./run.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const warmDef = (c: Cmd) => c;

export type WarmOptions = OptionsOf<typeof warmDef>;
