// `syncpod create POD-ID CONFIG [SANDBOX-CONFIG]`: a container from a pod manifest with
// --container (kubelet's config, the executor's prepare-container path), or crictl-style from
// CONTAINER.json SANDBOX.json. Wiring only: requests come from src/workflows/step-requests.ts.
import * as fs from 'node:fs';
import type { Context } from '../../context';
import type { CreateOptions } from './command';
import { profiledNode, stepDeps, stepTimeoutMs } from '../../../workflows/invocation-deps';
import { printRequest } from '../../output';
import { resolveSandboxIds } from '../../ids';
import { SyncpodError, errorLine } from '../../../errors';
import { resolveRules } from '../../../workflows/plan-pods';
import {
  containerRequest,
  crictlContainerRequest,
  readConfigDocument,
  type ContainerRequest,
} from '../../../workflows/step-requests';

export async function create(ctx: Context, args: string[], opts: CreateOptions): Promise<number> {
  const [podArg, configFile, sandboxFile] = args;
  const deps = stepDeps(ctx);
  let request: ContainerRequest;
  // The files are read (and a bad one refused) before the runtime is asked for the sandbox.
  if (opts.container !== undefined) {
    if (sandboxFile !== undefined)
      throw new SyncpodError('with --container the pod manifest gives the sandbox config; drop the third argument');
    const doc = await readConfigDocument(configFile, 'pod manifest', deps);
    const [podSandboxId] = await resolveSandboxIds(ctx, [podArg]);
    const { opts: node, detected } = await profiledNode(ctx, opts);
    const kubelet = resolveRules(node.kubeletVersion, undefined, detected);
    request = await containerRequest(
      podSandboxId,
      doc,
      {
        container: opts.container,
        ordinal: opts.ordinal,
        noPull: opts.pull === false,
        dryRun: !!opts.dryRun,
        showSecrets: !!opts.showSecrets,
        node,
        kubelet,
      },
      deps,
    );
  } else {
    if (sandboxFile === undefined)
      throw new SyncpodError('create needs CONTAINER.json SANDBOX.json, or a pod manifest with --container NAME');
    const cDoc = await readConfigDocument(configFile, 'container config', deps);
    if (cDoc.isManifest)
      throw new SyncpodError(`${configFile}: is a pod manifest; name the container with --container`);
    const sDoc = await readConfigDocument(sandboxFile, 'pod config', deps);
    const [podSandboxId] = await resolveSandboxIds(ctx, [podArg]);
    request = crictlContainerRequest(podSandboxId, cDoc, sDoc);
    if (!opts.dryRun && request.sandboxConfig.logDirectory && request.config.logPath) {
      const path = `${request.sandboxConfig.logDirectory}/${request.config.logPath}`;
      fs.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true, mode: 0o755 });
    }
  }
  if (opts.dryRun) {
    printRequest(ctx, 'CreateContainerRequest', request);
    return 0;
  }
  const res = await ctx.runtime.call('CreateContainer', request, { timeoutMs: stepTimeoutMs(ctx) }).catch((err) => {
    throw new SyncpodError(`creating container: ${errorLine(err)}`);
  });
  ctx.out(res.containerId);
  return 0;
}
