// net-setup, net-teardown, net-check as a flow: the sandbox's identity, netns and config read back
// from the runtime (state/sandbox-netns.ts), then the CNI plugins run for ADD / DEL / CHECK (cni/),
// executed as child processes, or only described with --dry-run.
import { onHost } from '../config/host-root';
import type { RuntimeService } from '../cri/grpc-runtime-service';
import { ChildProcessCniExec } from '../cni/child-process-cni-exec';
import * as cni from '../cni/network';
import type { CheckOutcome, CniCommand, CniOptions, SetupOutcome, TeardownOutcome } from '../cni/types';
import { SyncpodError } from '../errors';
import * as state from '../state/sandbox-netns';

/** The CNI flags as given (directories on the node, under --host-root). */
export interface CniFlags {
  cniBinDir: unknown;
  cniConfDir: unknown;
  cniCacheDir: unknown;
  network?: unknown;
  /** The deadline of each plugin run, in ms (already parsed). */
  timeoutMs: number;
}

export function cniOptionsFrom(flags: CniFlags, hostRoot: string): CniOptions {
  const at = (p: string): string => onHost(hostRoot, p);
  const nonEmpty = (flag: string, v: unknown): string => {
    if (typeof v !== 'string' || v === '') throw new SyncpodError(`${flag} must not be empty`);
    return v;
  };
  const binDirs = cni.parseBinDirs(nonEmpty('--cni-bin-dir', flags.cniBinDir)).map(at);
  if (binDirs.length === 0) throw new SyncpodError('--cni-bin-dir must name at least one directory');
  if (flags.network !== undefined) nonEmpty('--network', flags.network);
  return {
    confDir: at(nonEmpty('--cni-conf-dir', flags.cniConfDir)),
    binDirs,
    cacheDir: at(nonEmpty('--cni-cache-dir', flags.cniCacheDir)),
    ...(flags.network !== undefined ? { networkName: flags.network as string } : {}),
    timeoutMs: flags.timeoutMs,
  };
}

const VERB: Record<CniCommand, state.NetVerb> = { ADD: 'set up', DEL: 'tear down', CHECK: 'check' };

export interface SandboxNetworkRequest {
  command: CniCommand;
  sandboxId: string;
  ifname: string;
  dryRun: boolean;
  options: CniOptions;
  hostRoot: string;
}

export type SandboxNetworkResult =
  | { kind: 'dry-run'; plan: cni.DryRun }
  | { kind: 'ADD'; outcome: SetupOutcome }
  | { kind: 'DEL'; outcome: TeardownOutcome }
  | { kind: 'CHECK'; outcome: CheckOutcome };

/** Observes the sandbox, refuses what CNI must not touch, then runs (or describes) the plugins. */
export async function sandboxNetwork(
  req: SandboxNetworkRequest,
  runtime: RuntimeService,
  warn: (line: string) => void,
): Promise<SandboxNetworkResult> {
  const { command, ifname, hostRoot } = req;
  const sb = await state.withResolvConf(await state.observeSandboxNetwork(runtime, req.sandboxId), (p) =>
    onHost(hostRoot, p),
  );
  state.refuseSandbox(sb, VERB[command]);
  for (const note of sb.notes) warn(note);

  const netns = await state.locateNetns(sb, (p) => onHost(hostRoot, p));
  if (netns === undefined && command !== 'DEL') {
    const tried = state.netnsCandidates(sb);
    throw new SyncpodError(
      `cannot find the network namespace of sandbox ${sb.id}${tried.length > 0 ? ` (tried ${tried.join(', ')})` : ' (the runtime reports neither a netns path nor a pid)'}`,
    );
  }

  if (command === 'ADD') {
    const inside = await state.interfacesInNetns(netns as string);
    const listed = Array.isArray(inside) ? inside : undefined;
    if (!Array.isArray(inside))
      warn(
        `could not list the interfaces in ${netns} (${inside.error}); judging ${ifname} by what the runtime reports`,
      );
    const reason = state.existingInterface(sb, ifname, listed);
    if (reason !== undefined) {
      const err = state.alreadyAttachedError(sb, ifname, reason);
      if (!req.dryRun) throw err;
      warn(`a real run would refuse: ${err.message}`);
    }
  }

  const request = state.networkRequestFor(sb, ifname, netns ?? '');
  const deps = { exec: new ChildProcessCniExec() };
  if (req.dryRun) {
    const plan = await cni.describeInvocations(command, request, req.options, deps);
    for (const w of plan.warnings) warn(w);
    return { kind: 'dry-run', plan };
  }
  let result: SandboxNetworkResult;
  if (command === 'ADD') result = { kind: 'ADD', outcome: await cni.setupNetwork(request, req.options, deps) };
  else if (command === 'DEL') result = { kind: 'DEL', outcome: await cni.teardownNetwork(request, req.options, deps) };
  else result = { kind: 'CHECK', outcome: await cni.checkNetwork(request, req.options, deps) };
  for (const w of result.outcome.warnings) warn(w);
  return result;
}
