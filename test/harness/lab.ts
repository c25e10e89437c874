// A private, real containerd for tests, the demo and the benchmarks.
//
// Each lab gets its own directory (root, state, sockets, CNI config, pod logs), its own network
// namespace (containerd, and so the CNI bridge it creates, live in it; the machine's network is not
// touched), a sandbox image and a busybox image built here from /bin/busybox and imported with ctr.
// stop() removes every pod through CRI (so containerd tears down pod netns and CNI state), stops
// containerd and its shims, unmounts what is left, deletes the netns and the directory.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const PAUSE_IMAGE = 'localhost/syncpod/pause:3.9';
export const BUSYBOX_IMAGE = 'localhost/syncpod/busybox:1.36';
/** Same content as BUSYBOX_IMAGE under another name: changing to it changes the container hash. */
export const BUSYBOX_IMAGE_2 = 'localhost/syncpod/busybox:1.37';

export interface Lab {
  id: string;
  dir: string;
  socket: string;
  endpoint: string;
  netns: string;
  cniConfDir: string;
  podLogsRoot: string;
  podDirRoot: string;
  subnet: string;
  /** Environment for spawning syncpod against this lab (no crictl.yaml of the machine is read). */
  env: Record<string, string>;
  ctr(args: string[]): string;
  /** Puts docker-archive images (buildImages) into the runtime: ctr import, or skopeo for CRI-O. */
  importImages(archives: Array<{ tar: string; tags: string[] }>): void;
  /** Writes image `tag` to a docker-archive `tar` that importImages takes back: ctr export, or skopeo for CRI-O. */
  exportImage(tag: string, tar: string): void;
  /** Removes image `tag` from the runtime's store: ctr images rm, or crictl rmi for CRI-O (it has no ctr). */
  removeImage(tag: string): void;
  /** Gives image `tag` a second name `to`: ctr images tag, or skopeo for CRI-O. */
  tagImage(tag: string, to: string): void;
  /** Puts an OCI archive (npm run image) into the runtime as `name`: ctr import, or skopeo for CRI-O. */
  importOciArchive(tar: string, name: string): void;
  /** Sends `signal` (default SIGKILL) to containerd itself; its shims, and so the containers, live on. */
  signalContainerd(signal?: NodeJS.Signals): void;
  /** Starts containerd again on the same root, state and socket (after signalContainerd), and waits until it answers. */
  restartContainerd(): Promise<void>;
  stop(): Promise<void>;
}

export interface LabOptions {
  /** Directory to use (created); default a fresh one under the OS temp dir. */
  dir?: string;
  /** Keep the directory on stop (containerd is still stopped). */
  keepDir?: boolean;
  /** Note what the cleanup removed in LAB_LEDGER for the e2e suite's last check (default true; the demo: false). */
  ledger?: boolean;
  /** The port of containerd's streaming server (127.0.0.1 in the lab's netns); default: any free one. */
  streamPort?: number;
  log?: (line: string) => void;
}

const LAB_PREFIX = 'syncpod-lab-';
/** The unix socket the demo's stream bridge joins the two network namespaces with (in the lab dir). */
export const STREAM_BRIDGE_SOCKET = 'stream-bridge.sock';

function run(cmd: string, args: string[], opts: { input?: string | Buffer; allowFail?: boolean } = {}): string {
  const r = spawnSync(cmd, args, { input: opts.input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) {
    if (opts.allowFail) return '';
    throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  }
  if (r.status !== 0 && !opts.allowFail) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${(r.stderr || r.stdout).trim()}`);
  }
  return r.stdout;
}

/**
 * The runtime the lab starts, chosen by SYNCPOD_TEST_RUNTIME: `containerd` (default: Debian's, on PATH),
 * `containerd2` (containerd 2.x built by `npm run anchors`: CONTAINERD2_DIR, else the directory that
 * .anchors/env names) or `crio` (CRI-O built by `npm run anchors:crio`: CRIO_DIR, else .anchors/env;
 * Debian's conmon; images put into its storage with Debian's skopeo). All use runc and the CNI plugins
 * from Debian.
 */
export interface LabRuntime {
  kind: 'containerd' | 'containerd2' | 'crio';
  /** The runtime daemon's binary (containerd, or crio). */
  containerd: string;
  /** The ctr binary of the same release (containerd 1.6's ctr on PATH for the Debian runtime); '' for CRI-O. */
  ctr: string;
  /** PATH for the daemon, so it finds its own shim first. */
  path: string;
  /** CRI-O's pinns (beside crio). */
  pinns?: string;
}

const REPO = path.join(__dirname, '..', '..');

/** A `KEY=value` line of .anchors/env (written by `npm run anchors`), if the file and the line exist. */
export function anchorsEnv(key: string): string | undefined {
  try {
    const text = fs.readFileSync(path.join(REPO, '.anchors', 'env'), 'utf8');
    const line = text.split('\n').find((l) => l.startsWith(`${key}=`));
    return line ? line.slice(key.length + 1) : undefined;
  } catch {
    return undefined;
  }
}

export function labRuntime(env: NodeJS.ProcessEnv = process.env): LabRuntime {
  const kind = env.SYNCPOD_TEST_RUNTIME || 'containerd';
  const basePath = env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin';
  if (kind === 'containerd') return { kind, containerd: 'containerd', ctr: 'ctr', path: basePath };
  if (kind === 'crio') {
    const crioDir = env.CRIO_DIR || anchorsEnv('CRIO_DIR');
    if (!crioDir) throw new Error('SYNCPOD_TEST_RUNTIME=crio needs CRIO_DIR or .anchors/env: run npm run anchors:crio');
    for (const b of ['crio', 'pinns'])
      if (!fs.existsSync(path.join(crioDir, b)))
        throw new Error(`CRIO_DIR=${crioDir} has no ${b}: run npm run anchors:crio`);
    return {
      kind,
      containerd: path.join(crioDir, 'crio'),
      ctr: '',
      path: `${crioDir}:${basePath}`,
      pinns: path.join(crioDir, 'pinns'),
    };
  }
  if (kind !== 'containerd2')
    throw new Error(
      `SYNCPOD_TEST_RUNTIME=${kind}: the lab knows containerd (Debian's), containerd2 (npm run anchors) and crio (npm run anchors:crio)`,
    );
  const dir = env.CONTAINERD2_DIR || anchorsEnv('CONTAINERD2_DIR');
  if (!dir)
    throw new Error('SYNCPOD_TEST_RUNTIME=containerd2 needs CONTAINERD2_DIR or .anchors/env: run npm run anchors');
  for (const b of ['containerd', 'containerd-shim-runc-v2', 'ctr'])
    if (!fs.existsSync(path.join(dir, b))) throw new Error(`CONTAINERD2_DIR=${dir} has no ${b}: run npm run anchors`);
  return {
    kind,
    containerd: path.join(dir, 'containerd'),
    ctr: path.join(dir, 'ctr'),
    path: `${dir}:${basePath}`,
  };
}

/**
 * The crictl the e2e tests compare syncpod with: CRICTL, else the one .anchors/env names (crictl
 * v1.37.0, built by `npm run anchors`). Throws, so a comparison fails rather than passing unchecked.
 */
export function crictlBinary(env: NodeJS.ProcessEnv = process.env): string {
  const bin = env.CRICTL || anchorsEnv('CRICTL');
  if (!bin || !fs.existsSync(bin)) throw new Error('no crictl to compare with: run npm run anchors (or set CRICTL)');
  return bin;
}

function requirePrerequisites(rt: LabRuntime): void {
  if (process.getuid && process.getuid() !== 0) {
    throw new Error('the containerd lab needs root (it starts containerd and creates network namespaces)');
  }
  const tools = rt.kind === 'containerd' ? ['containerd', 'ctr'] : rt.kind === 'crio' ? ['conmon', 'skopeo'] : [];
  const missing = [...tools, 'runc', 'nsenter', 'ip', 'tar'].filter(
    (b) => spawnSync('sh', ['-c', `command -v ${b}`]).status !== 0,
  );
  if (!fs.existsSync('/bin/busybox')) missing.push('/bin/busybox (busybox-static)');
  if (!fs.existsSync('/usr/lib/cni/bridge')) missing.push('/usr/lib/cni/bridge (containernetworking-plugins)');
  if (missing.length) {
    throw new Error(
      `the containerd lab needs: ${missing.join(', ')} — apt-get install -y containerd runc containernetworking-plugins busybox-static${rt.kind === 'crio' ? ' conmon skopeo' : ''}`,
    );
  }
}

export interface LabImage {
  tags: string[];
  entrypoint: string[];
  cmd?: string[];
  /** The image config's User (a numeric one is the image's uid in CRI). */
  user?: string;
}

/** The lab's images: a pause stand-in and busybox under two names. */
const LAB_IMAGES: LabImage[] = [
  // A pause stand-in: PID 1 that exits on TERM/INT and otherwise sleeps.
  {
    tags: [PAUSE_IMAGE],
    entrypoint: ['/bin/sh', '-c', 'trap "exit 0" TERM INT; while true; do sleep 3600 & wait; done'],
  },
  { tags: [BUSYBOX_IMAGE, BUSYBOX_IMAGE_2], entrypoint: [], cmd: ['/bin/sh'] },
];

/**
 * Builds docker-archive tars (one busybox layer) for the sandbox image and the busybox images, or
 * for `images` (a test's own: e.g. one with a User).
 */
export function buildImages(workDir: string, images: LabImage[] = LAB_IMAGES): Array<{ tar: string; tags: string[] }> {
  const rootfs = path.join(workDir, 'rootfs');
  fs.rmSync(rootfs, { recursive: true, force: true });
  for (const d of ['bin', 'tmp', 'etc', 'proc', 'sys', 'dev', 'var', 'root'])
    fs.mkdirSync(path.join(rootfs, d), { recursive: true });
  fs.copyFileSync('/bin/busybox', path.join(rootfs, 'bin/busybox'));
  fs.chmodSync(path.join(rootfs, 'bin/busybox'), 0o755);
  const applets = run('/bin/busybox', ['--list'])
    .split('\n')
    .filter((a) => /^[a-z0-9_.[-]+$/.test(a) && a !== 'busybox');
  for (const a of applets) fs.symlinkSync('busybox', path.join(rootfs, 'bin', a));
  fs.writeFileSync(
    path.join(rootfs, 'etc/passwd'),
    'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n',
  );
  fs.writeFileSync(path.join(rootfs, 'etc/group'), 'root:x:0:\nnogroup:x:65534:\n');
  const layer = path.join(workDir, 'layer.tar');
  run('tar', [
    '--sort=name',
    '--mtime=@0',
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '-C',
    rootfs,
    '-cf',
    layer,
    '.',
  ]);
  const layerBytes = fs.readFileSync(layer);
  const diffId = createHash('sha256').update(layerBytes).digest('hex');
  const tars: Array<{ tar: string; tags: string[] }> = [];
  for (const img of images) {
    const config = {
      architecture: 'amd64',
      os: 'linux',
      created: '1970-01-01T00:00:00Z',
      config: {
        Env: ['PATH=/bin'],
        Entrypoint: img.entrypoint.length ? img.entrypoint : undefined,
        Cmd: img.cmd,
        User: img.user,
        WorkingDir: '/',
      },
      rootfs: { type: 'layers', diff_ids: [`sha256:${diffId}`] },
      history: [{ created: '1970-01-01T00:00:00Z', created_by: 'syncpod test harness' }],
    };
    const configBytes = Buffer.from(JSON.stringify(config));
    const configId = createHash('sha256').update(configBytes).digest('hex');
    const stage = path.join(workDir, `stage-${configId.slice(0, 12)}`);
    fs.rmSync(stage, { recursive: true, force: true });
    fs.mkdirSync(path.join(stage, diffId), { recursive: true });
    fs.writeFileSync(path.join(stage, `${configId}.json`), configBytes);
    fs.copyFileSync(layer, path.join(stage, diffId, 'layer.tar'));
    fs.writeFileSync(
      path.join(stage, 'manifest.json'),
      JSON.stringify([{ Config: `${configId}.json`, RepoTags: img.tags, Layers: [`${diffId}/layer.tar`] }]),
    );
    const tar = path.join(workDir, `image-${configId.slice(0, 12)}.tar`);
    run('tar', ['-C', stage, '-cf', tar, '.']);
    fs.rmSync(stage, { recursive: true, force: true });
    tars.push({ tar, tags: img.tags });
  }
  fs.rmSync(rootfs, { recursive: true, force: true });
  fs.rmSync(layer, { force: true });
  return tars;
}

function configToml(rt: LabRuntime, dir: string, cniConfDir: string, streamPort: number): string {
  if (rt.kind === 'crio')
    return crioConf(rt, dir, cniConfDir).replace('stream_port = "0"', `stream_port = "${streamPort}"`);
  const text = rt.kind === 'containerd' ? configTomlV2(dir, cniConfDir) : configTomlV3(dir, cniConfDir);
  return text.replace('stream_server_port = "0"', `stream_server_port = "${streamPort}"`);
}

/** The daemon's config file in the lab directory. */
const configFileOf = (rt: LabRuntime, dir: string) => path.join(dir, rt.kind === 'crio' ? 'crio.conf' : 'config.toml');
/** The CRI socket in the lab directory. */
const socketOf = (rt: LabRuntime, dir: string) => path.join(dir, rt.kind === 'crio' ? 'crio.sock' : 'containerd.sock');

/**
 * CRI-O: everything private to the lab (storage root and runroot with the vfs driver, which needs no
 * kernel overlay support inside a test; its socket, exits, attach sockets, pinned namespaces, logs,
 * version and shutdown files, hooks, CDI, irqbalance files, a signature policy that accepts the
 * lab's local images), runc and Debian's conmon, the lab's CNI dir, cgroupfs as the lab's containerd
 * uses, NRI and metrics off.
 */
/**
 * CRI-O's attach sockets live at DIR/<64-hex id>/attach, and a unix socket path has at most 107
 * bytes: under the lab directory the path was too long and every attach failed ("failed to connect
 * to container … attach socket", crictl's too). A short directory of the lab's own in the temp dir,
 * named by a hash of the lab directory, removed with the lab.
 */
export function crioAttachDir(dir: string): string {
  return path.join(os.tmpdir(), `spa-${createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 8)}`);
}

function crioConf(rt: LabRuntime, dir: string, cniConfDir: string): string {
  return `[crio]
root = "${dir}/storage/root"
runroot = "${dir}/storage/runroot"
storage_driver = "vfs"
log_dir = "${dir}/crio-logs"
version_file = "${dir}/crio-version"
version_file_persist = "${dir}/crio-version-persist"
clean_shutdown_file = "${dir}/crio-clean.shutdown"
[crio.api]
listen = "${dir}/crio.sock"
stream_address = "127.0.0.1"
stream_port = "0"
[crio.runtime]
default_runtime = "runc"
cgroup_manager = "cgroupfs"
conmon_cgroup = "pod"
# CRI-O names a pod's uid only in the debug line of its RunPodSandbox request: that line is kept
# for the lab's clean-up (podUidsOf), the other requests' and responses' debug lines are not
log_level = "debug"
log_filter = "^(?:Request: &RunPodSandboxRequest|[^R]|R[^e]|Re[^qs]|Req[^u]|Res[^p])"
pinns_path = "${rt.pinns}"
namespaces_dir = "${dir}/crio-ns"
container_exits_dir = "${dir}/crio-exits"
container_attach_socket_dir = "${crioAttachDir(dir)}"
hooks_dir = ["${dir}/crio-hooks"]
cdi_spec_dirs = ["${dir}/crio-cdi"]
decryption_keys_path = "${dir}/crio-keys"
irqbalance_config_file = "${dir}/crio-irqbalance"
irqbalance_config_restore_file = "${dir}/crio-irqbalance-restore"
default_mounts_file = "${dir}/crio-mounts.conf"
# the CRI event stream (GetContainerEvents), as kubelet's evented PLEG needs it
enable_pod_events = true
[crio.runtime.runtimes.runc]
runtime_path = "${dir}/crio-runc-clamp"
runtime_root = "${dir}/crio-runc"
runtime_type = "oci"
monitor_path = "/usr/bin/conmon"
monitor_cgroup = "pod"
[crio.image]
pause_image = "${PAUSE_IMAGE}"
# the lab's pause stand-in is a shell loop: run the image's own entrypoint, not /pause
pause_command = ""
signature_policy = "${dir}/crio-policy.json"
signature_policy_dir = "${dir}/crio-policies"
[crio.network]
network_dir = "${cniConfDir}"
plugin_dirs = ["/usr/lib/cni"]
[crio.nri]
enable_nri = false
[crio.metrics]
enable_metrics = false
`;
}

/** Files and directories CRI-O's config names that must exist before it starts. */
function prepareCrio(dir: string): void {
  for (const d of [
    'crio-conf.d',
    'crio-hooks',
    'crio-cdi',
    'crio-keys',
    'crio-policies',
    'crio-logs',
    'crio-registries.d',
  ])
    fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.mkdirSync(crioAttachDir(dir), { recursive: true });
  fs.writeFileSync(path.join(dir, 'crio-mounts.conf'), '');
  fs.writeFileSync(path.join(dir, 'crio-policy.json'), '{"default":[{"type":"insecureAcceptAnything"}]}\n');
  fs.writeFileSync(path.join(dir, 'crio-registries.conf'), 'unqualified-search-registries = ["docker.io"]\n');
  // runc behind a small rewrite of the bundle's config.json, for two facts of this machine, not of
  // CRI-O: it refuses to lower oom_score_adj (writing -998 fails), and CRI-O gives its infra container
  // -998 with no option like containerd's restrict_oom_score_adj, which the containerd labs use for the
  // same reason (clamp at the daemon's own score, 0 here); and /proc/cgroups lists the hugetlb
  // controller while no hugetlb hierarchy is mounted, so CRI-O (which drops hugepage limits only when
  // the controller is absent) passes kubelet's per-size limits and runc fails "cannot set hugetlb
  // limit". The rewrite drops them, which is what CRI-O does on a host without the controller.
  // Everything else reaches Debian's runc unchanged.
  const clamp = path.join(dir, 'crio-runc-clamp');
  const rewrite = path.join(dir, 'crio-runc-rewrite.js');
  fs.writeFileSync(
    rewrite,
    `const fs = require('fs');
const file = process.argv[2];
const spec = JSON.parse(fs.readFileSync(file, 'utf8'));
if (spec.process && spec.process.oomScoreAdj < 0) spec.process.oomScoreAdj = 0;
if (spec.linux && spec.linux.resources) delete spec.linux.resources.hugepageLimits;
fs.writeFileSync(file, JSON.stringify(spec));
`,
  );
  fs.writeFileSync(
    clamp,
    `#!/bin/sh
prev=
for a in "$@"; do
  case "$prev" in --bundle|-b) ${JSON.stringify(process.execPath)} ${JSON.stringify(rewrite)} "$a/config.json" ;; esac
  case "$a" in --bundle=*) ${JSON.stringify(process.execPath)} ${JSON.stringify(rewrite)} "\${a#--bundle=}/config.json" ;; esac
  prev=$a
done
exec /usr/bin/runc "$@"
`,
  );
  fs.chmodSync(clamp, 0o755);
}

/** containerd 1.x: config version 2, the CRI plugin's settings in one table. */
function configTomlV2(dir: string, cniConfDir: string): string {
  return `version = 2
root = "${dir}/root"
state = "${dir}/state"
[grpc]
  address = "${dir}/containerd.sock"
[ttrpc]
  address = "${dir}/containerd.sock.ttrpc"
[debug]
  level = "info"
[plugins."io.containerd.internal.v1.opt"]
  path = "${dir}/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${PAUSE_IMAGE}"
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${cniConfDir}"
`;
}

/**
 * containerd 2.x: config version 3. The CRI plugin is split: images (the sandbox image is the pinned
 * image "sandbox"), runtime (restrict_oom_score_adj, as the lab runs in a user's cgroup; CNI with
 * bin_dirs), and the gRPC server (streaming). NRI gets a socket of the lab's own instead of
 * /var/run/nri/nri.sock, so labs never share one.
 */
function configTomlV3(dir: string, cniConfDir: string): string {
  return `version = 3
root = "${dir}/root"
state = "${dir}/state"
[grpc]
  address = "${dir}/containerd.sock"
[ttrpc]
  address = "${dir}/containerd.sock.ttrpc"
[debug]
  level = "info"
[plugins.'io.containerd.internal.v1.opt']
  path = "${dir}/opt"
[plugins.'io.containerd.nri.v1.nri']
  socket_path = "${dir}/nri.sock"
  plugin_path = "${dir}/nri/plugins"
  plugin_config_path = "${dir}/nri/conf.d"
[plugins.'io.containerd.cri.v1.images'.pinned_images]
  sandbox = "${PAUSE_IMAGE}"
[plugins.'io.containerd.cri.v1.runtime']
  restrict_oom_score_adj = true
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ["/usr/lib/cni"]
    conf_dir = "${cniConfDir}"
[plugins.'io.containerd.grpc.v1.cri']
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Processes whose command line contains `needle`. */
function pidsMatching(needle: string): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle) && Number(entry) !== process.pid) out.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return out;
}

function descendants(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const text = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const c of text.split(/\s+/).filter(Boolean)) children.push(Number(c));
    }
  } catch {
    /* gone */
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

function unmountUnder(dir: string): void {
  const mounts = fs
    .readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[1])
    .filter((m): m is string => !!m && (m === dir || m.startsWith(dir + '/')))
    .map((m) => m.replace(/\\040/g, ' '))
    .sort((a, b) => b.length - a.length);
  for (const m of mounts) spawnSync('umount', ['-l', m]);
}

/** Netns that containerd created for pods of this lab, read from its sandbox metadata. */
function podNetnsOf(dir: string): string[] {
  const found = new Set<string>();
  // containerd keeps the netns path in its CRI sandbox metadata; scan the metadata db text for it.
  const db = path.join(dir, 'root', 'io.containerd.metadata.v1.bolt', 'meta.db');
  try {
    const text = fs.readFileSync(db).toString('latin1');
    for (const m of text.matchAll(/\/var\/run\/netns\/(cni-[0-9a-f-]{36})/g)) found.add(m[1]);
  } catch {
    /* no db */
  }
  return [...found];
}

/** The uid of every pod sandbox the lab's containerd was asked to run (its log names each, at info level). */
export function podUidsOf(dir: string): string[] {
  let text = '';
  try {
    text = fs.readFileSync(path.join(dir, 'containerd.log'), 'utf8');
  } catch {
    return [];
  }
  // containerd 1.x: `RunPodSandbox for &PodSandboxMetadata{Name:web,Uid:1e24…,…}`; 2.x may print the
  // metadata in protobuf text form (`uid:\"1e24…\"`); CRI-O's debug line of the request (the one the
  // lab's log_filter keeps): `Request: &RunPodSandboxRequest{Config:&PodSandboxConfig{Metadata:&…{Name:web,Uid:1e24…`.
  const uids = new Set<string>();
  for (const m of text.matchAll(
    /RunPodSandbox(?: for|Request\{)[^\n]*?\b[Uu]id:(?:\\?")?([0-9A-Za-z][0-9A-Za-z_.-]*)/g,
  ))
    uids.add(m[1]!);
  // The pod log directories (NAMESPACE_NAME_UID, as kubelet and syncpod name them) give it too, while
  // they are there (an orphan's goes with it).
  try {
    for (const name of fs.readdirSync(path.join(dir, 'pod-logs'))) {
      const m = /^[^_]+_[^_]+_([0-9A-Za-z][0-9A-Za-z_.-]*)$/.exec(name);
      if (m) uids.add(m[1]!);
    }
  } catch {
    /* no pod logs */
  }
  return [...uids].sort();
}

/** The cgroup hierarchies of this host: each v1 controller's mount, or the one v2 tree. */
function cgroupHierarchies(): string[] {
  const mounts = fs.readFileSync('/proc/mounts', 'utf8').split('\n');
  return mounts
    .map((l) => l.split(' '))
    .filter((f) => f[2] === 'cgroup' || f[2] === 'cgroup2')
    .map((f) => f[1]!)
    .sort();
}

/** Whether a cgroup directory name is the pod cgroup of `uid` (cgroupfs `pod<uid>`, systemd `…-pod<uid_>.slice`). */
function isPodCgroup(name: string, uids: Set<string>): boolean {
  const cgroupfs = /^pod(.+)$/.exec(name);
  if (cgroupfs && uids.has(cgroupfs[1]!)) return true;
  const systemd = /-pod([^-]+)\.slice$/.exec(name);
  return !!systemd && uids.has(systemd[1]!.replace(/_/g, '-'));
}

/**
 * The pod cgroups of these pods in every hierarchy (kubelet creates and removes them; runc creates
 * them as the containers' parents and leaves them when the containers go). Looked for down to depth 6
 * (`<cgroup-root>/kubepods/<qos>/pod<uid>`), without entering a pod cgroup.
 */
export function podCgroupsOf(uids: string[]): string[] {
  const want = new Set(uids);
  const found: string[] = [];
  if (want.size === 0) return found;
  const walk = (dir: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const p = path.join(dir, e.name);
      if (isPodCgroup(e.name, want)) found.push(p);
      else if (depth < 6) walk(p, depth + 1);
    }
  };
  for (const h of cgroupHierarchies()) walk(h, 1);
  return found.sort();
}

/** Removes a cgroup directory and the (empty) cgroups below it, deepest first. */
function removeCgroup(dir: string): void {
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (e.isDirectory()) removeCgroup(path.join(dir, e.name));
  try {
    fs.rmdirSync(dir);
  } catch {
    /* busy: a process still in it */
  }
}

/**
 * Where every lab's cleanup notes what it removed, for the e2e suite's last check
 * (test/e2e/zz-host-left-clean.test.ts) to look again: one JSON object per line.
 */
export const LAB_LEDGER = path.join(__dirname, '..', '..', '.lab', 'e2e-ledger.jsonl');

export interface LabLedgerEntry {
  dir: string;
  netns: string;
  podNetns: string[];
  podUids: string[];
}

/** Hard cleanup of a lab directory: processes, mounts, netns, pod cgroups, files. */
function destroyLab(dir: string, netns: string | undefined, keepDir: boolean, ledger = true): void {
  const sock = path.join(dir, 'containerd.sock');
  for (const pid of [...pidsMatching(`--config ${dir}/config.toml`), ...pidsMatching(`--config ${dir}/crio.conf`)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  // The demo's stream bridge (scripts/demo-stream-bridge.mjs) names its socket in the lab directory.
  for (const pid of pidsMatching(`${dir}/${STREAM_BRIDGE_SOCKET}`)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  // containerd's shims name its socket; CRI-O's conmons name the lab's exit dir.
  for (const shim of [...pidsMatching(`-address ${sock}`), ...pidsMatching(`--exit-dir ${dir}/crio-exits`)]) {
    for (const p of [...descendants(shim).reverse(), shim]) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
  const podNetns = podNetnsOf(dir);
  for (const ns of podNetns) spawnSync('ip', ['netns', 'del', ns]);
  unmountUnder(dir);
  if (netns) spawnSync('ip', ['netns', 'del', netns]);
  const podUids = podUidsOf(dir);
  for (const cg of podCgroupsOf(podUids)) removeCgroup(cg);
  try {
    if (!ledger) throw new Error('no ledger');
    fs.mkdirSync(path.dirname(LAB_LEDGER), { recursive: true });
    const entry: LabLedgerEntry = { dir, netns: netns ?? '', podNetns, podUids };
    fs.appendFileSync(LAB_LEDGER, `${JSON.stringify(entry)}\n`);
  } catch {
    /* a read-only checkout: the last check has less to look at */
  }
  if (!keepDir) fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(crioAttachDir(dir), { recursive: true, force: true });
}

/** Removes labs left behind by test processes that died (their owner pid is gone). */
export function sweepStaleLabs(log: (l: string) => void = () => {}): void {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(LAB_PREFIX)) continue;
    const dir = path.join(tmp, name);
    let owner = 0;
    try {
      owner = Number(fs.readFileSync(path.join(dir, 'owner.pid'), 'utf8'));
    } catch {
      /* no owner file */
    }
    if (owner && pidAlive(owner)) continue;
    log(`removing stale lab ${dir}`);
    destroyLab(dir, `${LAB_PREFIX}${name.slice(LAB_PREFIX.length)}`, false);
  }
}

export interface CriCleaner {
  removeAllPods(endpoint: string): Promise<void>;
}

/** Stops and removes every pod sandbox through CRI, so containerd tears down netns and CNI state. */
async function removeAllPodsViaCri(endpoint: string): Promise<void> {
  const { cleanPods } = await import('./cri-cleanup');
  await cleanPods(endpoint);
}

/** Removes every pod through CRI, stops containerd and its shims, then the hard cleanup. */
async function stopLabProcesses(
  dir: string,
  netns: string,
  keepDir: boolean,
  log: (l: string) => void,
  ledger = true,
): Promise<void> {
  // A CRI-O lab has crio.conf and crio.sock where a containerd lab has config.toml and containerd.sock.
  const crio = fs.existsSync(path.join(dir, 'crio.conf'));
  const socket = path.join(dir, crio ? 'crio.sock' : 'containerd.sock');
  const needle = `--config ${dir}/${crio ? 'crio.conf' : 'config.toml'}`;
  try {
    if (fs.existsSync(socket)) await removeAllPodsViaCri(`unix://${socket}`);
  } catch (err) {
    log(`lab: CRI cleanup failed (${(err as Error).message}); cleaning up by force`);
  }
  for (const pid of pidsMatching(needle)) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  for (let i = 0; i < 50 && pidsMatching(needle).length; i++) await sleep(100);
  destroyLab(dir, netns, keepDir, ledger);
}

/**
 * Stops a lab that an earlier process started and left running (the demo's --keep), from its
 * directory alone: its pods, containerd, the netns, mounts, and the directory. False when `dir`
 * holds no lab.
 */
/** A lab's directory: containerd's config.toml or CRI-O's crio.conf in it. */
const isLabDir = (dir: string): boolean =>
  fs.existsSync(path.join(dir, 'config.toml')) || fs.existsSync(path.join(dir, 'crio.conf'));

export async function stopLabAt(
  dir: string,
  opts: { ledger?: boolean; log?: (l: string) => void } = {},
): Promise<boolean> {
  if (!isLabDir(dir)) return false;
  let netns = '';
  try {
    netns = fs.readFileSync(path.join(dir, 'netns'), 'utf8').trim();
  } catch {
    /* none */
  }
  await stopLabProcesses(path.resolve(dir), netns, false, opts.log ?? (() => {}), opts.ledger ?? true);
  return true;
}

export async function startLab(opts: LabOptions = {}): Promise<Lab> {
  const log = opts.log ?? (() => {});
  const rt = labRuntime();
  requirePrerequisites(rt);
  sweepStaleLabs(log);
  const id = randomBytes(4).toString('hex');
  const dir = opts.dir ? path.resolve(opts.dir) : path.join(os.tmpdir(), `${LAB_PREFIX}${id}`);
  const netns = `${LAB_PREFIX}${id}`;
  if (opts.dir && isLabDir(dir)) {
    // A previous demo lab in the same directory: take it down first.
    let oldNetns: string | undefined;
    try {
      oldNetns = fs.readFileSync(path.join(dir, 'netns'), 'utf8').trim();
    } catch {
      /* none */
    }
    destroyLab(dir, oldNetns, false, opts.ledger ?? true);
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'owner.pid'), String(process.pid));
  fs.writeFileSync(path.join(dir, 'netns'), netns);
  const cniConfDir = path.join(dir, 'cni', 'net.d');
  const podLogsRoot = path.join(dir, 'pod-logs');
  const podDirRoot = path.join(dir, 'kubelet');
  fs.mkdirSync(cniConfDir, { recursive: true });
  fs.mkdirSync(podLogsRoot, { recursive: true });
  fs.mkdirSync(podDirRoot, { recursive: true });
  const third = 1 + (parseInt(id.slice(0, 2), 16) % 250);
  const subnet = `10.231.${third}.0/24`;
  fs.writeFileSync(
    path.join(cniConfDir, '10-syncpod-lab.conflist'),
    JSON.stringify(
      {
        cniVersion: '0.4.0',
        name: 'syncpod-lab',
        plugins: [
          {
            type: 'bridge',
            bridge: 'splab0',
            isGateway: true,
            ipMasq: false,
            ipam: { type: 'host-local', ranges: [[{ subnet }]], dataDir: path.join(dir, 'ipam') },
          },
          { type: 'portmap', capabilities: { portMappings: true } },
        ],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(configFileOf(rt, dir), configToml(rt, dir, cniConfDir, opts.streamPort ?? 0));
  const tars = buildImages(dir);
  // CRI-O pulls only from registries, and the lab has none: skopeo copies archives into its storage.
  const store = `containers-storage:[vfs@${dir}/storage/root+${dir}/storage/runroot]`;
  const skopeoCopy = (from: string, to: string): void => {
    run('skopeo', ['--policy', path.join(dir, 'crio-policy.json'), 'copy', '--quiet', from, to]);
  };
  const intoCrioStorage = (archives: Array<{ tar: string; tags: string[] }>): void => {
    for (const { tar, tags } of archives) for (const tag of tags) skopeoCopy(`docker-archive:${tar}`, `${store}${tag}`);
  };
  if (rt.kind === 'crio') {
    prepareCrio(dir);
    intoCrioStorage(tars); // before it starts
  }

  run('ip', ['netns', 'add', netns]);
  run('ip', ['-n', netns, 'link', 'set', 'lo', 'up']);
  const launch = (): void => {
    const logFd = fs.openSync(path.join(dir, 'containerd.log'), 'a');
    // nsenter --net only switches the network namespace (ip netns exec would remount /sys and hide cgroups).
    const args =
      rt.kind === 'crio'
        ? [
            '--config',
            configFileOf(rt, dir),
            '--config-dir',
            path.join(dir, 'crio-conf.d'),
            // CRI-O resolves short names (syncpod:VERSION) only through registries.conf's search
            // list: the lab's names docker.io, as distributions' registries.conf do and containerd
            // does built in (and no registries.conf.d of the machine).
            '--registries-conf',
            path.join(dir, 'crio-registries.conf'),
            '--registries-conf-dir',
            path.join(dir, 'crio-registries.d'),
          ]
        : ['--config', configFileOf(rt, dir)];
    const child = spawn('nsenter', [`--net=/run/netns/${netns}`, rt.containerd, ...args], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: {
        ...process.env,
        PATH: rt.path,
      },
    });
    child.unref();
    fs.closeSync(logFd);
  };
  launch();
  const socket = socketOf(rt, dir);
  const answers = (): boolean =>
    rt.kind === 'crio'
      ? spawnSync(crictlBinary(), ['--config', '/dev/null', '-r', `unix://${socket}`, '-t', '2s', 'version'], {
          encoding: 'utf8',
        }).status === 0
      : spawnSync(rt.ctr, ['--address', socket, 'version'], { encoding: 'utf8' }).status === 0;
  // CRI-O answers before its CNI plugin has loaded the network (NetworkReady false, "plugin status
  // uninitialized", for a moment): the lab is up once the network is ready too.
  const networkReady = (): boolean => {
    if (rt.kind !== 'crio') return true;
    const r = spawnSync(crictlBinary(), ['--config', '/dev/null', '-r', `unix://${socket}`, '-t', '2s', 'info'], {
      encoding: 'utf8',
    });
    try {
      const conditions: Array<{ type: string; status: boolean }> = JSON.parse(r.stdout).status.conditions;
      return conditions.some((c) => c.type === 'NetworkReady' && c.status);
    } catch {
      return false;
    }
  };
  const waitUntilUp = async (): Promise<void> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (fs.existsSync(socket) && answers() && networkReady()) return;
      if (Date.now() > deadline) {
        const tail = fs.readFileSync(path.join(dir, 'containerd.log'), 'utf8').split('\n').slice(-5).join(' | ');
        throw new Error(`containerd did not come up within 30s: ${tail}`);
      }
      await sleep(100);
    }
  };
  const containerdPids = (): number[] =>
    pidsMatching(`--config ${configFileOf(rt, dir)}`).filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === (rt.kind === 'crio' ? 'crio' : 'containerd');
      } catch {
        return false;
      }
    });
  const signalContainerd = (signal: NodeJS.Signals = 'SIGKILL'): void => {
    const pids = containerdPids();
    if (pids.length === 0) throw new Error('lab: containerd is not running');
    for (const pid of pids) process.kill(pid, signal);
  };
  const restartContainerd = async (): Promise<void> => {
    for (let i = 0; i < 100 && containerdPids().length; i++) await sleep(50);
    if (containerdPids().length) throw new Error('lab: containerd is still running; signal it first');
    launch();
    await waitUntilUp();
  };
  const ctr = (args: string[]): string => {
    if (rt.kind === 'crio') throw new Error(`lab.ctr ${args.join(' ')}: CRI-O has no ctr (a containerd tool)`);
    return run(rt.ctr, ['--address', socket, '-n', 'k8s.io', ...args]);
  };

  const stop = (): Promise<void> => stopLabProcesses(dir, netns, !!opts.keepDir, log, opts.ledger ?? true);

  try {
    await waitUntilUp();
    if (rt.kind !== 'crio') for (const { tar } of tars) ctr(['images', 'import', tar]);
  } catch (err) {
    await stop();
    throw err;
  }
  log(`lab ${id}: ${rt.kind} at unix://${socket}`);
  return {
    id,
    dir,
    socket,
    endpoint: `unix://${socket}`,
    netns,
    cniConfDir,
    podLogsRoot,
    podDirRoot,
    subnet,
    env: {
      CONTAINER_RUNTIME_ENDPOINT: `unix://${socket}`,
      IMAGE_SERVICE_ENDPOINT: '',
      CRI_CONFIG_FILE: '',
      NO_COLOR: '1',
    },
    ctr,
    importImages: (archives) => {
      if (rt.kind === 'crio') intoCrioStorage(archives);
      else for (const { tar } of archives) ctr(['images', 'import', tar]);
    },
    exportImage: (tag, tar) => {
      if (rt.kind !== 'crio') ctr(['images', 'export', tar, tag]);
      else skopeoCopy(`${store}${tag}`, `docker-archive:${tar}:${tag}`);
    },
    tagImage: (tag, to) => {
      if (rt.kind !== 'crio') ctr(['images', 'tag', tag, to]);
      else skopeoCopy(`${store}${tag}`, `${store}${to}`);
    },
    importOciArchive: (tar, name) => {
      if (rt.kind !== 'crio') ctr(['images', 'import', tar]);
      else skopeoCopy(`oci-archive:${tar}`, `${store}${name}`);
    },
    removeImage: (tag) => {
      if (rt.kind !== 'crio') ctr(['images', 'rm', tag]);
      else run(crictlBinary(), ['--config', '/dev/null', '-r', `unix://${socket}`, 'rmi', tag]);
    },
    signalContainerd,
    restartContainerd,
    stop,
  };
}

/** Which tools the lab used, for messages. */
export function labToolVersions(): string {
  return execFileSync(labRuntime().containerd, ['--version'], { encoding: 'utf8' }).trim().split('\n')[0];
}
