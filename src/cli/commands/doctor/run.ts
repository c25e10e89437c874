// `syncpod doctor`: wiring of flags to src/workflows/doctor.ts (the env and the run) and
// src/render/doctor-view.ts (the formats).
import { profileWithRuntimeConfigFile, runtimeCgroupDriverWithin } from '../../../workflows/node-profile';
import { promises as fsp } from 'node:fs';
import type { Context } from '../../context';
import type { DoctorOptions } from './command';
import type { PlanOptions } from '../plan/command';
import { SyncpodError, errorLine } from '../../../errors';
import { everyMs, everyUntilSignalled } from '../../every';
import { onHost } from '../../../config/host-root';
import { parseTimeout } from '../../../config/settings';
import { DOCTOR_CHECKS } from '../../../doctor/registry';
import { buildDoctorReport, clipForNpd, doctorExitCode, NPD_UNKNOWN, type DoctorReport } from '../../../doctor/report';
import type { NodeProfile } from '../../../node/types';
import type { DoctorCheck } from '../../../doctor/types';
import {
  buildDoctorEnv,
  DEFAULT_CHECK_DEADLINE_MS,
  NPD_CHECK_DEADLINE_MS,
  runChecks,
  selectChecks,
} from '../../../workflows/doctor';
import { planNode } from '../../../workflows/node-plan';
import { syncpodNodeFlags, withNodeProfile } from '../../../workflows/node-profile';
import {
  DOCTOR_OUTPUTS,
  type DoctorOutput,
  renderDoctorJson,
  renderDoctorNpd,
  renderDoctorPrometheus,
  renderDoctorTable,
  renderDoctorYaml,
} from '../../../render/doctor-view';
import { nodeDeps, upgradeNodeDeps } from '../../../workflows/invocation-deps';
import { upgradeNodeVerdict } from '../../../workflows/upgrade-node';
import { resolveRules } from '../../../workflows/plan-pods';
import { nodeRequest } from '../../whole-node';
import { outputWidth, parseOutput } from '../../output';

export async function doctor(ctx: Context, _args: string[], opts: DoctorOptions): Promise<number> {
  // Everything the flags say is checked before anything is read or called.
  const output = parseOutput(opts.output, DOCTOR_OUTPUTS);
  // The upgrade group runs only for a target (--upgrade-to), refused first when syncpod does not know it.
  if (opts.upgradeTo !== undefined) resolveRules(opts.upgradeTo, undefined);
  const registry =
    opts.upgradeTo !== undefined || opts.list ? DOCTOR_CHECKS : DOCTOR_CHECKS.filter((c) => c.group !== 'upgrade');
  if (
    opts.upgradeTo === undefined &&
    !opts.list &&
    [...opts.check].some((v) => v === 'upgrade' || v.startsWith('upgrade.'))
  )
    throw new SyncpodError('--check: the upgrade checks need --upgrade-to VERSION');
  const checks = selectChecks(registry, opts.check, opts.skip);
  const deadlineMs =
    opts.checkTimeout !== undefined
      ? parseTimeout(opts.checkTimeout, '--check-timeout')
      : output === 'npd'
        ? NPD_CHECK_DEADLINE_MS
        : DEFAULT_CHECK_DEADLINE_MS;
  const stuckAfterMs = parseTimeout(opts.stuckAfter, '--stuck-after');
  syncpodNodeFlags(opts);
  if (opts.list) {
    for (const c of checks) ctx.out(`${c.id}\t${c.group}\t${c.title}`);
    return 0;
  }
  if (opts.every !== undefined) return doctorEvery(ctx, opts, checks, output, deadlineMs, stuckAfterMs);
  if (output !== 'npd') return runDoctor(ctx, opts, checks, output, deadlineMs, stuckAfterMs);
  try {
    return await runDoctor(ctx, opts, checks, output, deadlineMs, stuckAfterMs);
  } catch (err) {
    ctx.out(clipForNpd(`Unknown: ${errorLine(err)}`));
    return NPD_UNKNOWN;
  }
}

/**
 * The node profile, with the runtime's RuntimeConfig answer asked within a third of the check deadline (a
 * silent runtime is runtime.reachable's finding). A kubelet configuration that cannot be read is a
 * finding (kubelet.config), not the end of the run: the profile then holds syncpod's defaults.
 */
async function doctorProfile(
  ctx: Context,
  opts: DoctorOptions,
  deadlineMs: number,
): Promise<{ profile: NodeProfile; profileError?: string }> {
  let profileError: string | undefined;
  try {
    ctx.nodeProfile(opts);
  } catch (err) {
    profileError = errorLine(err);
    ctx.flags.noNodeProfile = true;
  }
  // A third of the check deadline: the checks that follow get the whole of theirs (with -o npd both fit in NPD's plugin timeout).
  const waitMs = Math.ceil(deadlineMs / 3);
  const rt = await runtimeCgroupDriverWithin(ctx.cri().runtime, waitMs);
  return { profile: profileWithRuntimeConfigFile(ctx.nodeProfile(opts, rt), ctx.settings().hostRoot), profileError };
}

/** One doctor run: the env built afresh (its memoised reads are this run's), every check, the report. */
async function doctorReport(
  ctx: Context,
  opts: DoctorOptions,
  selected: DoctorCheck[],
  deadlineMs: number,
  stuckAfterMs: number,
): Promise<DoctorReport> {
  const { profile, profileError } = await doctorProfile(ctx, opts, deadlineMs);
  const hostRoot = ctx.settings().hostRoot;
  const nodeOpts = withNodeProfile(opts, profile);
  const target = opts.upgradeTo;
  const env = buildDoctorEnv({
    profile,
    profileError,
    runtime: ctx.cri().runtime,
    image: ctx.cri().image,
    endpoint: profile.runtimeEndpoint.value,
    runtimeConfig: async () => profile.runtimeCgroupDriver ?? { answered: false, why: 'not asked' },
    readNodeFile: (p) => fsp.readFile(onHost(hostRoot, p), 'utf8'),
    nodePath: (p) => onHost(hostRoot, p),
    now: () => ctx.now(),
    planNode: (runtime, image) => {
      const req = nodeRequest(ctx, opts.pods, nodeOpts as unknown as PlanOptions & typeof nodeOpts);
      return planNode(req, { ...nodeDeps(ctx), runtime: runtime as never, image: image as never });
    },
    bounds: { stuckAfterMs, deadlineMs },
    ...(target !== undefined ? { upgrade: () => upgradeNodeVerdict(upgradeNodeDeps(ctx, profile), target) } : {}),
  });
  const startedAt = new Date(ctx.now()).toISOString();
  const results = await runChecks(selected, env, { deadlineMs, clock: () => performance.now() });
  return buildDoctorReport(profile.nodeName.value, results, startedAt);
}

async function runDoctor(
  ctx: Context,
  opts: DoctorOptions,
  selected: DoctorCheck[],
  output: DoctorOutput,
  deadlineMs: number,
  stuckAfterMs: number,
): Promise<number> {
  const report = await doctorReport(ctx, opts, selected, deadlineMs, stuckAfterMs);
  switch (output) {
    case 'json':
      ctx.io.stdout.write(renderDoctorJson(report));
      break;
    case 'yaml':
      ctx.io.stdout.write(renderDoctorYaml(report));
      break;
    case 'prometheus':
      ctx.io.stdout.write(renderDoctorPrometheus(report, ctx.now()));
      break;
    case 'npd': {
      const r = renderDoctorNpd(report);
      ctx.io.stdout.write(r.text);
      return r.exitCode;
    }
    default:
      ctx.io.stdout.write(renderDoctorTable(report, ctx.colours, outputWidth(ctx)));
  }
  return doctorExitCode(report, !!opts.detailedExitcode);
}

/** `doctor --every DURATION` (the DaemonSet's doctor container): one report per interval until SIGTERM/SIGINT; JSON one line per run. */
async function doctorEvery(
  ctx: Context,
  opts: DoctorOptions,
  selected: DoctorCheck[],
  output: DoctorOutput,
  deadlineMs: number,
  stuckAfterMs: number,
): Promise<number> {
  const ms = everyMs(opts.every, output);
  return everyUntilSignalled(ctx, ms, async () => {
    const report = await doctorReport(ctx, opts, selected, deadlineMs, stuckAfterMs);
    if (output === 'json') ctx.out(JSON.stringify(report));
    else if (output === 'yaml') ctx.out(`---\n${renderDoctorYaml(report)}`);
    else if (output === 'prometheus') ctx.io.stdout.write(renderDoctorPrometheus(report, ctx.now()));
    else ctx.io.stdout.write(`${renderDoctorTable(report, ctx.colours, outputWidth(ctx))}\n`);
  });
}
