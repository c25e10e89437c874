// The command table: every syncpod command as one typed row (name, definition, options type,
// loader). Each command lives in its own folder, src/cli/commands/NAME/:
//   command.ts  its flags: `export const fooDef = (c: Cmd) => c.description(...).option(...)` and
//               `export type FooOptions = OptionsOf<typeof fooDef>` (inferred from the flags by
//               @commander-js/extra-typings, so renaming a flag breaks the compile of every handler
//               that reads the old name). Read at every start: it imports only ../../command-flags.
//   run.ts      the handler, `export async function foo(ctx: Context, args: string[], opts: FooOptions)`,
//               with plain static imports; it only wires flags to src/workflows/ (flows) and
//               src/render/ (views). Loaded by the row's import() below, the ONLY lazy load of the
//               project's own code (with the context factory): `--version`, `--help` and usage
//               errors never read it, and a run reads only the invoked command's code.
//   man.ts      its man page text (`export const man: CommandDoc`: what it reads, changes and never
//               touches, exit codes, environment, files, examples), read by `npm run man` only.
// Code several commands share stays in src/cli/ (flag groups in command-flags.ts, the pieces of man
// text in man-text.ts). To add a command: write its folder, add its row below, run `npm run man`
// (man pages and completions come from this table; a test fails on stale pages or a missing man.ts).
// .dependency-cruiser.cjs checks the folder rules (no command imports another's code, command.ts
// stays light, run.ts only through import()).
import type { Command } from '@commander-js/extra-typings';
import type { Context } from './context';
import type { AnyCommand, Cmd } from './command-flags';
import * as version from './commands/version/command';
import * as info from './commands/info/command';
import * as pods from './commands/pods/command';
import * as inspectp from './commands/inspectp/command';
import * as ps from './commands/ps/command';
import * as inspect from './commands/inspect/command';
import * as logs from './commands/logs/command';
import * as images from './commands/images/command';
import * as inspecti from './commands/inspecti/command';
import * as update from './commands/update/command';
import * as checkpoint from './commands/checkpoint/command';
import * as runtimeConfig from './commands/runtime-config/command';
import * as events from './commands/events/command';
import * as config from './commands/config/command';
import * as stats from './commands/stats/command';
import * as statsp from './commands/statsp/command';
import * as imagefsinfo from './commands/imagefsinfo/command';
import * as metricdescs from './commands/metricdescs/command';
import * as metricsp from './commands/metricsp/command';
import * as exec from './commands/exec/command';
import * as attach from './commands/attach/command';
import * as portForward from './commands/port-forward/command';
import * as plan from './commands/plan/command';
import * as sync from './commands/sync/command';
import * as doctor from './commands/doctor/command';
import * as report from './commands/report/command';
import * as runp from './commands/runp/command';
import * as create from './commands/create/command';
import * as start from './commands/start/command';
import * as stop from './commands/stop/command';
import * as rm from './commands/rm/command';
import * as stopp from './commands/stopp/command';
import * as rmp from './commands/rmp/command';
import * as pull from './commands/pull/command';
import * as rmi from './commands/rmi/command';
import * as netSetup from './commands/net-setup/command';
import * as netTeardown from './commands/net-teardown/command';
import * as netCheck from './commands/net-check/command';
import * as node from './commands/node/command';
import * as completion from './commands/completion/command';
import * as warm from './commands/__warm/command';

export type { Cmd, OptionsOf } from './command-flags';
export type * from './commands/version/command';
export type * from './commands/info/command';
export type * from './commands/pods/command';
export type * from './commands/inspectp/command';
export type * from './commands/ps/command';
export type * from './commands/inspect/command';
export type * from './commands/logs/command';
export type * from './commands/images/command';
export type * from './commands/inspecti/command';
export type * from './commands/update/command';
export type * from './commands/checkpoint/command';
export type * from './commands/runtime-config/command';
export type * from './commands/events/command';
export type * from './commands/config/command';
export type * from './commands/stats/command';
export type * from './commands/statsp/command';
export type * from './commands/imagefsinfo/command';
export type * from './commands/metricdescs/command';
export type * from './commands/metricsp/command';
export type * from './commands/exec/command';
export type * from './commands/attach/command';
export type * from './commands/port-forward/command';
export type * from './commands/plan/command';
export type * from './commands/sync/command';
export type * from './commands/doctor/command';
export type * from './commands/report/command';
export type * from './commands/runp/command';
export type * from './commands/create/command';
export type * from './commands/start/command';
export type * from './commands/stop/command';
export type * from './commands/rm/command';
export type * from './commands/stopp/command';
export type * from './commands/rmp/command';
export type * from './commands/pull/command';
export type * from './commands/rmi/command';
export type * from './commands/net-setup/command';
export type * from './commands/net-teardown/command';
export type * from './commands/net-check/command';
export type * from './commands/node/command';
export type * from './commands/completion/command';
export type * from './commands/__warm/command';

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
  entry('version', version.versionDef, () => import('./commands/version/run').then((m) => m.version)),
  entry('info', info.infoDef, () => import('./commands/info/run').then((m) => m.info)),
  entry('pods', pods.podsDef, () => import('./commands/pods/run').then((m) => m.pods)),
  entry('inspectp', inspectp.inspectpDef, () => import('./commands/inspectp/run').then((m) => m.inspectp)),
  entry('ps', ps.psDef, () => import('./commands/ps/run').then((m) => m.ps)),
  entry('inspect', inspect.inspectDef, () => import('./commands/inspect/run').then((m) => m.inspect)),
  entry('logs', logs.logsDef, () => import('./commands/logs/run').then((m) => m.logs)),
  entry('images', images.imagesDef, () => import('./commands/images/run').then((m) => m.images), {
    aliases: ['image', 'img'],
  }),
  entry('inspecti', inspecti.inspectiDef, () => import('./commands/inspecti/run').then((m) => m.inspecti)),
  entry('update', update.updateDef, () => import('./commands/update/run').then((m) => m.update)),
  entry('checkpoint', checkpoint.checkpointDef, () => import('./commands/checkpoint/run').then((m) => m.checkpoint)),
  entry('runtime-config', runtimeConfig.runtimeConfigDef, () =>
    import('./commands/runtime-config/run').then((m) => m.runtimeConfig),
  ),
  entry('events', events.eventsDef, () => import('./commands/events/run').then((m) => m.events)),
  entry('config', config.configDef, () => import('./commands/config/run').then((m) => m.config)),
  entry('stats', stats.statsDef, () => import('./commands/stats/run').then((m) => m.stats)),
  entry('statsp', statsp.statspDef, () => import('./commands/statsp/run').then((m) => m.statsp)),
  entry('imagefsinfo', imagefsinfo.imagefsinfoDef, () =>
    import('./commands/imagefsinfo/run').then((m) => m.imagefsinfo),
  ),
  entry('metricdescs', metricdescs.metricdescsDef, () =>
    import('./commands/metricdescs/run').then((m) => m.metricdescs),
  ),
  entry('metricsp', metricsp.metricspDef, () => import('./commands/metricsp/run').then((m) => m.metricsp)),
  entry('exec', exec.execDef, () => import('./commands/exec/run').then((m) => m.exec)),
  entry('attach', attach.attachDef, () => import('./commands/attach/run').then((m) => m.attach)),
  entry('port-forward', portForward.portForwardDef, () =>
    import('./commands/port-forward/run').then((m) => m.portForward),
  ),
  entry('plan', plan.planDef, () => import('./commands/plan/run').then((m) => m.plan)),
  entry('sync', sync.syncDef, () => import('./commands/sync/run').then((m) => m.sync)),
  entry('doctor', doctor.doctorDef, () => import('./commands/doctor/run').then((m) => m.doctor)),
  entry('report', report.reportDef, () => import('./commands/report/run').then((m) => m.report)),
  entry('runp', runp.runpDef, () => import('./commands/runp/run').then((m) => m.runp)),
  entry('create', create.createDef, () => import('./commands/create/run').then((m) => m.create)),
  entry('start', start.startDef, () => import('./commands/start/run').then((m) => m.start)),
  entry('stop', stop.stopDef, () => import('./commands/stop/run').then((m) => m.stop)),
  entry('rm', rm.rmDef, () => import('./commands/rm/run').then((m) => m.rm)),
  entry('stopp', stopp.stoppDef, () => import('./commands/stopp/run').then((m) => m.stopp)),
  entry('rmp', rmp.rmpDef, () => import('./commands/rmp/run').then((m) => m.rmp)),
  entry('pull', pull.pullDef, () => import('./commands/pull/run').then((m) => m.pull)),
  entry('rmi', rmi.rmiDef, () => import('./commands/rmi/run').then((m) => m.rmi)),
  entry('net-setup', netSetup.netSetupDef, () => import('./commands/net-setup/run').then((m) => m.netSetup)),
  entry('net-teardown', netTeardown.netTeardownDef, () =>
    import('./commands/net-teardown/run').then((m) => m.netTeardown),
  ),
  entry('net-check', netCheck.netCheckDef, () => import('./commands/net-check/run').then((m) => m.netCheck)),
  entry('node', node.nodeDef, () => import('./commands/node/run').then((m) => m.node)),
  entry('completion', completion.completionDef, () => import('./commands/completion/run').then((m) => m.completion)),
  entry('__warm', warm.warmDef, () => import('./commands/__warm/run').then((m) => m.warm), { hidden: true }),
];
