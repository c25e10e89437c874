// --dry-run: the executor runs its normal code path against these wrappers. Read-only CRI calls
// (statuses, lists) go to the runtime; every mutating call is recorded with its exact request and
// answered with a placeholder; filesystem changes are recorded, not made.
import type { ImageMethods, RuntimeMethods } from '../cri/grpc-runtime-service';
import type { CriCaller, SyncFs } from './types';

export interface RecordedRequest {
  service: 'RuntimeService' | 'ImageService';
  rpc: string;
  request: unknown;
}

const READ_ONLY = new Set([
  'Version',
  'Status',
  'PodSandboxStatus',
  'ListPodSandbox',
  'ListContainers',
  'ContainerStatus',
  'ListImages',
  'ImageStatus',
  'ImageFsInfo',
]);

export const NEW_SANDBOX_ID = '<id of the new sandbox>';
/** Stands for the IP the runtime will give the new sandbox (/etc/hosts, POD_IP env). */
export const NEW_SANDBOX_IP = '<ip of the new sandbox>';

export function dryRunCri<M>(
  real: CriCaller<M>,
  service: RecordedRequest['service'],
  recorded: RecordedRequest[],
): CriCaller<M> {
  let n = 0;
  // An image this run pulled is present for the rest of it (a later Never or IfNotPresent
  // container of the same image finds it, as on the node).
  const pulled = new Set<string>();
  return {
    call: (async (method: string, request: any, opts?: { timeoutMs?: number }) => {
      if (method === 'ImageStatus' && pulled.has(String(request?.image?.image))) {
        const answer = await (real as any).call(method, request, opts);
        if (answer?.image?.id) return answer;
        const image = String(request.image.image);
        return { ...answer, image: { id: `<image id of ${image}>`, repoTags: [image], repoDigests: [] } };
      }
      if (method === 'PodSandboxStatus' && request?.podSandboxId === NEW_SANDBOX_ID) {
        return {
          status: { id: NEW_SANDBOX_ID, state: 'SANDBOX_READY', network: { ip: NEW_SANDBOX_IP, additionalIps: [] } },
          info: {},
          containersStatuses: [],
          timestamp: '0',
        };
      }
      if (READ_ONLY.has(method)) return (real as any).call(method, request, opts);
      recorded.push({ service, rpc: method, request });
      switch (method) {
        case 'RunPodSandbox':
          return { podSandboxId: NEW_SANDBOX_ID };
        case 'CreateContainer':
          return { containerId: `<id of new container ${++n}>` };
        case 'PullImage':
          pulled.add(String(request?.image?.image));
          return { imageRef: `<image id of ${request?.image?.image}>` };
        case 'ExecSync':
          return { stdout: new Uint8Array(), stderr: new Uint8Array(), exitCode: 0 };
        default:
          return {};
      }
    }) as CriCaller<M>['call'],
  };
}

export type DryRuntime = CriCaller<RuntimeMethods>;
export type DryImage = CriCaller<ImageMethods>;

/**
 * Reads pass through; writes are described in `changes`, and what they would create reads as
 * there afterwards (a directory made for the sandbox is not "made" again for each container).
 */
export function dryRunFs(real: SyncFs, changes: string[]): SyncFs {
  const made = new Map<string, { kind: 'dir' | 'file'; mode: number }>();
  const kind = (p: string) => made.get(p)?.kind ?? real.kind(p);
  const exists = (p: string) => made.has(p) || real.exists(p);
  return {
    exists,
    kind,
    // What the run would have made reads with the mode it would have been given.
    mode: (p) => made.get(p)?.mode ?? (real.exists(p) ? real.mode(p) : 0o755),
    readdir: (p) => real.readdir(p),
    readInVolume: (v, rel) => real.readInVolume(v, rel),
    safeMakeDir: (v, sub, mode) => {
      changes.push(
        `mkdir ${v}/${sub} (${mode.toString(8)}, each missing level inside the volume, no symlink followed)`,
      );
      made.set(`${v}/${sub}`, { kind: 'dir', mode });
    },
    bindSubPath: (m) => {
      changes.push(`mount --bind ${m.volumePath}/${m.subPath} (resolved inside the volume) ${m.target}`);
      made.set(m.target, { kind: 'dir', mode: 0o750 });
    },
    // Unmounting a removed pod's subPath mounts follows the removal itself, which the requests show.
    cleanSubPaths: () => [],
    mkdirAll: (p, mode) => {
      if (kind(p) === 'dir') return;
      changes.push(`mkdir -p ${p} (${mode.toString(8)})`);
      // The directory and its missing parents (one that exists stays what it is).
      for (
        let d = p.replace(/\/+$/, '');
        d !== '' && !made.has(d) && !real.exists(d);
        d = d.slice(0, d.lastIndexOf('/'))
      )
        made.set(d, { kind: 'dir', mode });
    },
    touch: (p, mode) => {
      changes.push(`touch ${p} (${mode.toString(8)})`);
      made.set(p, { kind: 'file', mode });
    },
    writeFile: (p, _c, mode) => {
      changes.push(`write ${p} (${mode.toString(8)})`);
      made.set(p, { kind: 'file', mode });
    },
    chmod: () => undefined,
    remove: (p) => {
      if (real.exists(p)) changes.push(`rm ${p}`);
    },
    removeDir: (p) => {
      if (real.exists(p)) changes.push(`rmdir ${p}`);
    },
    symlink: (t, p) => void changes.push(`ln -s ${t} ${p}`),
    mountTmpfs: (p, options) => {
      changes.push(`mount -t tmpfs${options.length ? ` -o ${options.join(',')}` : ''} tmpfs ${p}`);
      return 'mounted';
    },
    volumeOwnership: (p, gid, readOnly) =>
      void changes.push(`chgrp -R ${gid} ${p}; chmod -R g+${readOnly ? 'r' : 'rw'} (directories g+xs)`),
    unmountPodVolumes: (uid) => {
      changes.push(`umount the volume mounts of pod uid ${uid}`);
      return [];
    },
    destroyCgroup: async (dirs) => {
      changes.push(`kill the processes left in and rmdir ${dirs.join(', ')}`);
      return [];
    },
    // Names and modes only: a file's content (a Secret's value) is never described.
    atomicWrite: (dir, files, ts) => {
      const list = files.map((f) => `${f.path} (${f.mode.toString(8)})`).join(', ');
      changes.push(`write ${dir}/${ts}: ${files.length} file(s) ${list}; ${dir}/..data -> ${ts}`);
      return 'written';
    },
  };
}
