// `syncpod doctor`: wiring of flags to src/workflows/doctor.ts (the env and the run) and
// src/render/doctor-view.ts (the formats).
import { promises as fsp } from 'node:fs';
import type { Context } from './context';
import type { DoctorOptions, PlanOptions } from './commands';
import { errorLine } from '../errors';
import { onHost } from '../config/host-root';
import { parseTimeout } from '../config/settings';
import { DOCTOR_CHECKS } from '../doctor/registry';
import { buildDoctorReport, clipForNpd, doctorExitCode, NPD_UNKNOWN } from '../doctor/report';
import type { NodeProfile } from '../node/types';
import type { DoctorCheck } from '../doctor/types';
import { buildDoctorEnv, runChecks, selectChecks } from '../workflows/doctor';
import { planNode } from '../workflows/node-plan';
import { profileWithRuntime, syncpodNodeFlags, withNodeProfile } from '../workflows/node-profile';
import { DOCTOR_OUTPUTS, renderDoctorJson, renderDoctorNpd, renderDoctorPrometheus, renderDoctorTable, renderDoctorYaml } from '../render/doctor-view';
import { nodeDeps } from './deps';
import { nodeRequest } from './node';
import { parseOutput } from './output';

export async function doctor(ctx: Context, _args: string[], opts: DoctorOptions): Promise<number> {
  // Everything the flags say is checked before anything is read or called.
  const output = parseOutput(opts.output, DOCTOR_OUTPUTS);
  const checks = selectChecks(DOCTOR_CHECKS, opts.check, opts.skip);
  const deadlineMs = parseTimeout(opts.checkTimeout, '--check-timeout');
  const stuckAfterMs = parseTimeout(opts.stuckAfter, '--stuck-after');
  syncpodNodeFlags(opts);
  if (opts.list) {
    for (const c of checks) ctx.out(`${c.id}\t${c.group}\t${c.title}`);
    return 0;
  }
  if (output !== 'npd') return runDoctor(ctx, opts, checks, output, deadlineMs, stuckAfterMs);
  try {
    return await runDoctor(ctx, opts, checks, output, deadlineMs, stuckAfterMs);
  } catch (err) {
    ctx.out(clipForNpd(`Unknown: ${errorLine(err)}`));
    return NPD_UNKNOWN;
  }
}

/** The node profile; a kubelet configuration that cannot be read is a finding (kubelet.config), not the end of the run. */
async function doctorProfile(ctx: Context, opts: DoctorOptions): Promise<{ profile: NodeProfile; profileError?: string }> {
  const withRuntime = () => profileWithRuntime((rt) => ctx.nodeProfile(opts, rt), () => ctx.cri().runtime);
  try {
    return { profile: await withRuntime() };
  } catch (err) {
    ctx.flags.noNodeProfile = true;
    return { profile: await withRuntime(), profileError: errorLine(err) };
  }
}

async function runDoctor(ctx: Context, opts: DoctorOptions, selected: DoctorCheck[], output: (typeof DOCTOR_OUTPUTS)[number], deadlineMs: number, stuckAfterMs: number): Promise<number> {
  const { profile, profileError } = await doctorProfile(ctx, opts);
  const hostRoot = ctx.settings().hostRoot;
  const nodeOpts = withNodeProfile(opts, profile);
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
    bounds: { stuckAfterMs },
  });
  const results = await runChecks(selected, env, { deadlineMs, clock: () => performance.now() });
  const report = buildDoctorReport(profile.nodeName.value, results);
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
      ctx.io.stdout.write(renderDoctorTable(report, ctx.colours, ctx.io.stdout.columns));
  }
  return doctorExitCode(report, !!opts.detailedExitcode);
}
