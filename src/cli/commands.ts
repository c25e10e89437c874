// The command table: every syncpod command as one typed entry (name, definition, options type,
// loader). This is the ONLY place where the project's own modules are loaded lazily: a command's
// module, and the context every command runs with (settings, the CRI connection, the node
// profile), are read only once commander has chosen the command; `--version`, `--help` and usage
// errors never load them.
//
// To add a command:
//   1. Write the definition in look-defs.ts (look commands) or pod-defs.ts (pod commands):
//      `export const fooDef = (c: Cmd) => c.description(...).argument(...).option(...)`, and its
//      options type: `export type FooOptions = OptionsOf<typeof fooDef>`.
//      The type is inferred from the flags (@commander-js/extra-typings), so renaming a flag
//      breaks the compile of every handler that reads the old name.
//   2. Write the handler in a command module under src/cli/ with plain static imports:
//      `export async function foo(ctx: Context, args: string[], opts: FooOptions): Promise<number>`.
//      It only wires flags to src/workflows/ (flows) and src/render/ (views).
//   3. Add `entry('foo', pod.fooDef, () => import('./foo-module').then((m) => m.foo))` to COMMANDS.
//   4. Add its man page text to COMMAND_DOCS in command-docs.ts (description: what it reads, changes
//      and never touches; exit codes; environment; files; examples), then `npm run man` (man pages
//      and completions come from this table; a test fails on stale pages or a missing entry).
import type { Command } from '@commander-js/extra-typings';
import type { Context } from './context';
import type { AnyCommand, Cmd } from './command-flags';
import * as look from './look-defs';
import * as pod from './pod-defs';
import * as usage from './usage-defs';
import * as ops from './ops-defs';

export type { Cmd, OptionsOf } from './command-flags';
export type * from './look-defs';
export type * from './pod-defs';
export type * from './usage-defs';
export type * from './ops-defs';

/** The context factory, loaded together with the invoked command's module (see main.ts). */
export const loadContext = () => import('./context').then((m) => m.createContext);

export type Handler<O> = (ctx: Context, args: string[], opts: O) => Promise<number | void>;

export interface CommandEntry {
  name: string;
  /** Other names the command answers to (crictl's). */
  aliases: readonly string[];
  hidden: boolean;
  define: (c: Cmd) => AnyCommand;
  load: () => Promise<Handler<never>>;
}

/** One table row; the handler's options type must be the definition's. */
function entry<O>(
  name: string,
  define: (c: Cmd) => Command<any[], O & {}, any>,
  load: () => Promise<Handler<O>>,
  extra: { hidden?: boolean; aliases?: string[] } = {},
): CommandEntry {
  return {
    name,
    aliases: extra.aliases ?? [],
    hidden: extra.hidden ?? false,
    define,
    load: load as () => Promise<Handler<never>>,
  };
}

// ---------------------------------------------------------------------------------------------
// the table, in the order `syncpod --help` lists the commands

export const COMMANDS: readonly CommandEntry[] = [
  entry('version', look.versionDef, () => import('./runtime').then((m) => m.version)),
  entry('info', look.infoDef, () => import('./runtime').then((m) => m.info)),
  entry('pods', look.podsDef, () => import('./sandbox').then((m) => m.pods)),
  entry('inspectp', look.inspectpDef, () => import('./inspect').then((m) => m.inspectp)),
  entry('ps', look.psDef, () => import('./container').then((m) => m.ps)),
  entry('inspect', look.inspectDef, () => import('./inspect').then((m) => m.inspect)),
  entry('logs', look.logsDef, () => import('./logs').then((m) => m.logs)),
  entry('images', look.imagesDef, () => import('./image').then((m) => m.images), { aliases: ['image', 'img'] }),
  entry('inspecti', look.inspectiDef, () => import('./image').then((m) => m.inspecti)),
  entry('update', ops.updateDef, () => import('./container-ops').then((m) => m.update)),
  entry('checkpoint', ops.checkpointDef, () => import('./container-ops').then((m) => m.checkpoint)),
  entry('runtime-config', ops.runtimeConfigDef, () => import('./runtime-ops').then((m) => m.runtimeConfig)),
  entry('events', ops.eventsDef, () => import('./runtime-ops').then((m) => m.events)),
  entry('config', ops.configDef, () => import('./client-config').then((m) => m.config)),
  entry('stats', usage.statsDef, () => import('./stats').then((m) => m.stats)),
  entry('statsp', usage.statspDef, () => import('./stats').then((m) => m.statsp)),
  entry('imagefsinfo', usage.imagefsinfoDef, () => import('./stats').then((m) => m.imagefsinfo)),
  entry('exec', usage.execDef, () => import('./stream').then((m) => m.exec)),
  entry('attach', usage.attachDef, () => import('./stream').then((m) => m.attach)),
  entry('port-forward', usage.portForwardDef, () => import('./stream').then((m) => m.portForward)),
  entry('plan', pod.planDef, () => import('./plan').then((m) => m.plan)),
  entry('sync', pod.syncDef, () => import('./sync').then((m) => m.sync)),
  entry('doctor', pod.doctorDef, () => import('./doctor').then((m) => m.doctor)),
  entry('report', pod.reportDef, () => import('./report').then((m) => m.report)),
  entry('runp', pod.runpDef, () => import('./runp').then((m) => m.runp)),
  entry('create', pod.createDef, () => import('./create').then((m) => m.create)),
  entry('start', pod.startDef, () => import('./lifecycle').then((m) => m.start)),
  entry('stop', pod.stopDef, () => import('./lifecycle').then((m) => m.stop)),
  entry('rm', pod.rmDef, () => import('./lifecycle').then((m) => m.rm)),
  entry('stopp', pod.stoppDef, () => import('./lifecycle').then((m) => m.stopp)),
  entry('rmp', pod.rmpDef, () => import('./lifecycle').then((m) => m.rmp)),
  entry('pull', pod.pullDef, () => import('./pull').then((m) => m.pull)),
  entry('rmi', pod.rmiDef, () => import('./rmi').then((m) => m.rmi)),
  entry('net-setup', pod.netSetupDef, () => import('./network').then((m) => m.netSetup)),
  entry('net-teardown', pod.netTeardownDef, () => import('./network').then((m) => m.netTeardown)),
  entry('net-check', pod.netCheckDef, () => import('./network').then((m) => m.netCheck)),
  entry('node', pod.nodeDef, () => import('./node-profile').then((m) => m.node)),
  entry('completion', pod.completionDef, () => import('./docs').then((m) => m.completion)),
  entry('__warm', pod.warmDef, () => import('./warm').then((m) => m.warm), { hidden: true }),
];
