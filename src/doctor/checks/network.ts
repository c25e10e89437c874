// doctor checks of the network group: the pod network the runtime loads from its CNI conf dir,
// the plugin binaries it names, host-local IPAM leases no live sandbox holds and how full each
// range is, IPv4 forwarding in the runtime's network namespace, and bridge-nf-call-iptables where
// the bridge plugin is used.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errorLine } from '../../errors';
import { DEFAULT_CNI_CONF_DIR, listConfFiles, parseNetworkFile } from '../../cni/conf';
import type { Json, NetworkConfigList } from '../../cni/types';
import type { CheckOutcome, DoctorCheck, DoctorEnv, Evidence } from '../types';
import { configCniDirs, runtimeInfoConfig } from '../runtime-info';
import { ipRangeSize, leaseInRange, parseHostLocalRanges, type LeaseRange } from '../ipam';
import { isObj } from '../../json-object';

const ev = (name: string, value: string, from: string): Evidence => ({ name, value, from });
export const DEFAULT_CNI_BIN_DIR = '/opt/cni/bin';
const DEFAULT_HOST_LOCAL_DATA_DIR = '/var/lib/cni/networks';

/** Where the runtime reads CNI configs and plugins: containerd's Status info, else its config file, else CNI's defaults. */
export async function cniDirs(
  env: DoctorEnv,
): Promise<{ confDir: string; binDirs: string[]; from: string; loadStatus?: string }> {
  let info: ReturnType<typeof runtimeInfoConfig>;
  let loadStatus: string | undefined;
  try {
    const status = await env.cri.status();
    info = runtimeInfoConfig(status);
    const last = status.info?.lastCNILoadStatus;
    if (typeof last === 'string' && last) loadStatus = last;
  } catch {
    info = undefined;
  }
  const cni =
    info && typeof info.cni === 'object' && info.cni !== null ? (info.cni as Record<string, unknown>) : undefined;
  const confDir = typeof cni?.confDir === 'string' && cni.confDir ? cni.confDir : undefined;
  const binDirs = Array.isArray(cni?.binDirs)
    ? (cni.binDirs as unknown[]).filter((d): d is string => typeof d === 'string' && d !== '')
    : typeof cni?.binDir === 'string' && cni.binDir
      ? cni.binDir.split(':').filter(Boolean)
      : [];
  const file = confDir ? undefined : configCniDirs(env.profile);
  if (file) return { ...file, loadStatus };
  return {
    confDir: confDir ?? DEFAULT_CNI_CONF_DIR,
    binDirs: binDirs.length ? binDirs : [DEFAULT_CNI_BIN_DIR],
    from: confDir ? 'CRI Status info.config.cni' : 'CNI defaults (the runtime does not report its CNI dirs)',
    loadStatus,
  };
}

type Chosen =
  | {
      kind: 'network';
      network: NetworkConfigList;
      file: string;
      skipped: string[];
      confDir: string;
      binDirs: string[];
      dirsFrom: string;
      loadStatus?: string;
    }
  | { kind: 'outcome'; outcome: CheckOutcome };

const chosenCache = new WeakMap<DoctorEnv, Promise<Chosen>>();

/** The pod network as the runtime picks it: the first file of the conf dir, in lexical order, that parses. */
export function chosenNetwork(env: DoctorEnv): Promise<Chosen> {
  let p = chosenCache.get(env);
  if (!p) chosenCache.set(env, (p = choose(env)));
  return p;
}

async function choose(env: DoctorEnv): Promise<Chosen> {
  const dirs = await cniDirs(env);
  const dirEv = ev('CNI conf dir', dirs.confDir, dirs.from);
  try {
    await stat(env.nodePath(dirs.confDir));
  } catch (err) {
    return {
      kind: 'outcome',
      outcome: {
        status: 'skip',
        summary: `The CNI conf dir ${dirs.confDir} does not exist (${(err as NodeJS.ErrnoException).code ?? errorLine(err)}): this node configures no CNI network there.`,
        evidence: [dirEv],
      },
    };
  }
  const files = await listConfFiles(env.nodePath(dirs.confDir));
  const skipped: string[] = [];
  for (const name of files) {
    const file = join(dirs.confDir, name);
    try {
      const network = parseNetworkFile(name, await env.readNodeFile(file));
      return {
        kind: 'network',
        network,
        file,
        skipped,
        confDir: dirs.confDir,
        binDirs: dirs.binDirs,
        dirsFrom: dirs.from,
        loadStatus: dirs.loadStatus,
      };
    } catch (err) {
      skipped.push(`${file}: ${errorLine(err)}`);
    }
  }
  const evidence = [
    dirEv,
    ev('config files', files.length ? files.join(', ') : 'none', dirs.confDir),
    ...skipped.map((s) => ev('unusable', s, dirs.confDir)),
  ];
  if (dirs.loadStatus) evidence.push(ev('lastCNILoadStatus', dirs.loadStatus, 'CRI Status info'));
  return {
    kind: 'outcome',
    outcome: {
      status: 'fail',
      summary: files.length
        ? `No CNI config in ${dirs.confDir} is usable (${skipped.length} unusable): the runtime reports NetworkReady false and no pod can get a network.`
        : `${dirs.confDir} holds no CNI config (.conf, .conflist, .json): the runtime reports NetworkReady false ("cni config uninitialized") and no pod can get a network.`,
      evidence,
      remedy: `Install the pod network's config in ${dirs.confDir} (usually the CNI DaemonSet writes it: check that its pod runs on this node), or fix the file named above.`,
    },
  };
}

/** Every binary a network runs: each plugin's type and each plugin's ipam.type. */
export function pluginBinaries(network: NetworkConfigList): string[] {
  const out: string[] = [];
  for (const p of network.plugins) {
    out.push(p.type);
    const ipam = p.raw.ipam;
    if (isObj<Json>(ipam) && typeof ipam.type === 'string' && ipam.type) out.push(ipam.type);
  }
  return [...new Set(out)];
}

/** host-local IPAM sections of a network: its data dir and ranges. */
export function hostLocalSections(network: NetworkConfigList): Array<{ dataDir: string; ranges: LeaseRange[] }> {
  const out: Array<{ dataDir: string; ranges: LeaseRange[] }> = [];
  for (const p of network.plugins) {
    const ipam = p.raw.ipam;
    if (!isObj<Json>(ipam) || ipam.type !== 'host-local') continue;
    const dataDir = typeof ipam.dataDir === 'string' && ipam.dataDir ? ipam.dataDir : DEFAULT_HOST_LOCAL_DATA_DIR;
    out.push({ dataDir: join(dataDir, network.name), ranges: parseHostLocalRanges(ipam) });
  }
  return out;
}

/** A lease file's holder: its first line (host-local writes "containerID\r\nifname"). */
export function leaseHolder(text: string): string {
  return text.split(/\r?\n/)[0]!.trim();
}

const RUNTIME_COMMS = new Set(['containerd', 'crio', 'cri-dockerd', 'dockerd']);

/**
 * /proc/PID/net/snmp of a runtime process whose network namespace holds the CRI socket (its
 * /proc/PID/net/unix lists the path): the namespace the pod network's host side lives in. Undefined
 * when none is found (then the reader's own namespace is used).
 */
async function runtimeNetnsProc(env: DoctorEnv): Promise<string | undefined> {
  const socket = env.cri.endpoint.replace(/^unix:\/\//, '');
  if (!socket.startsWith('/')) return undefined;
  let pids: string[];
  try {
    pids = (await readdir(env.nodePath('/proc'))).filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    try {
      const comm = (await env.readNodeFile(`/proc/${pid}/comm`)).trim();
      if (!RUNTIME_COMMS.has(comm)) continue;
      const unix = await env.readNodeFile(`/proc/${pid}/net/unix`);
      if (unix.split('\n').some((l) => l.endsWith(` ${socket}`))) return `/proc/${pid}`;
    } catch {
      // gone or not ours to read
    }
  }
  return undefined;
}

/** The Forwarding value of an snmp table ("Ip: Forwarding …" header and values): 1 forwarding, 2 not. */
export function snmpForwarding(text: string): number | undefined {
  const lines = text.split('\n').filter((l) => l.startsWith('Ip: '));
  if (lines.length < 2) return undefined;
  const head = lines[0]!.slice(4).trim().split(/\s+/);
  const vals = lines[1]!.slice(4).trim().split(/\s+/);
  const i = head.indexOf('Forwarding');
  const v = i < 0 ? NaN : Number(vals[i]);
  return Number.isFinite(v) ? v : undefined;
}

export const networkChecks: DoctorCheck[] = [
  {
    id: 'network.cni-config',
    group: 'network',
    title: 'the CNI conf dir holds a config the runtime loaded',
    async run(env) {
      const c = await chosenNetwork(env);
      if (c.kind === 'outcome') return c.outcome;
      const evidence = [
        ev(
          'network',
          `${c.network.name} (cniVersion ${c.network.cniVersion}; plugins ${c.network.plugins.map((p) => p.type).join(', ')})`,
          c.file,
        ),
        ...c.skipped.map((s) => ev('unusable', s, c.confDir)),
      ];
      if (c.loadStatus !== undefined) evidence.push(ev('lastCNILoadStatus', c.loadStatus, 'CRI Status info'));
      if (c.loadStatus !== undefined && c.loadStatus !== 'OK') {
        return {
          status: 'fail',
          summary: `${c.file} is there but the runtime's last CNI load failed: ${c.loadStatus}`,
          evidence,
          remedy: `Fix the config the runtime names (it reloads ${c.confDir} when a file there is written).`,
        };
      }
      if (c.skipped.length) {
        return {
          status: 'warn',
          summary: `The runtime uses network ${c.network.name} from ${c.file}; ${c.skipped.length} earlier file(s) in ${c.confDir} are unusable and skipped.`,
          evidence,
          remedy: 'Remove or fix the unusable files: a later fix to them would change the pod network.',
        };
      }
      return { status: 'ok', summary: `The pod network is ${c.network.name} from ${c.file}.`, evidence };
    },
  },
  {
    id: 'network.cni-plugins',
    group: 'network',
    title: 'every plugin binary the network names exists',
    async run(env) {
      const c = await chosenNetwork(env);
      if (c.kind === 'outcome')
        return {
          status: 'skip',
          summary: 'No usable CNI config (see network.cni-config): no plugins to look for.',
          evidence: [],
        };
      const evidence: Evidence[] = [];
      const missing: string[] = [];
      for (const bin of pluginBinaries(c.network)) {
        let found: string | undefined;
        for (const dir of c.binDirs) {
          try {
            const s = await stat(env.nodePath(join(dir, bin)));
            if (s.isFile() && (s.mode & 0o111) !== 0) {
              found = join(dir, bin);
              break;
            }
          } catch {
            // not in this dir
          }
        }
        if (found) evidence.push(ev(bin, found, c.dirsFrom));
        else {
          missing.push(bin);
          evidence.push(ev(bin, `not found in ${c.binDirs.join(', ')}`, c.dirsFrom));
        }
      }
      if (missing.length) {
        return {
          status: 'fail',
          summary: `Network ${c.network.name} needs ${missing.join(', ')}, not found (executable) in ${c.binDirs.join(', ')}: every new pod sandbox fails to set up its network.`,
          evidence,
          remedy: `Install the CNI plugins (e.g. the containernetworking-plugins package, or the network DaemonSet's init container) into ${c.binDirs[0]}.`,
        };
      }
      return {
        status: 'ok',
        summary: `All ${evidence.length} plugin binaries of ${c.network.name} are in ${c.binDirs.join(', ')}.`,
        evidence,
      };
    },
  },
  {
    id: 'network.ipam-leases',
    group: 'network',
    title: 'host-local IPAM leases no sandbox holds, and how full each range is',
    async run(env) {
      const c = await chosenNetwork(env);
      if (c.kind === 'outcome')
        return { status: 'skip', summary: 'No usable CNI config (see network.cni-config).', evidence: [] };
      const sections = hostLocalSections(c.network);
      if (sections.length === 0)
        return {
          status: 'skip',
          summary: `Network ${c.network.name} uses no host-local IPAM: its leases are not kept on this node.`,
          evidence: [],
        };
      const sandboxes = await env.cri.sandboxes();
      const ready = new Set(sandboxes.filter((s) => s.state === 'SANDBOX_READY').map((s) => s.id));
      const known = new Set(sandboxes.map((s) => s.id));
      const evidence: Evidence[] = [];
      let leaked = 0;
      let worst: 'ok' | 'warn' | 'fail' = 'ok';
      const fullness: string[] = [];
      for (const sec of sections) {
        let names: string[];
        try {
          names = await readdir(env.nodePath(sec.dataDir));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
            evidence.push(ev('leases', '0 (no data dir yet)', sec.dataDir));
            continue;
          }
          throw err;
        }
        const leases: Array<{ ip: string; holder: string }> = [];
        for (const name of names.sort()) {
          if (!/^[0-9a-fA-F.:_]+$/.test(name) || !/[.:_]/.test(name)) continue; // lock, last_reserved_ip.N
          const ip = name.replace(/_/g, ':');
          if (!sec.ranges.some((r) => leaseInRange(ip, r)) && sec.ranges.length) continue;
          try {
            leases.push({ ip, holder: leaseHolder(await env.readNodeFile(join(sec.dataDir, name))) });
          } catch {
            // released since the listing
          }
        }
        const orphaned = leases.filter((l) => !ready.has(l.holder));
        leaked += orphaned.length;
        for (const l of orphaned.slice(0, 10)) {
          evidence.push(
            ev(
              `lease ${l.ip}`,
              known.has(l.holder)
                ? `held by NotReady sandbox ${l.holder.slice(0, 13)}`
                : `held by ${l.holder.slice(0, 13) || '(empty)'}, which the runtime does not know`,
              join(sec.dataDir, l.ip),
            ),
          );
        }
        if (orphaned.length > 10) evidence.push(ev('more leaked leases', String(orphaned.length - 10), sec.dataDir));
        for (const r of sec.ranges) {
          const size = ipRangeSize(r);
          const used = leases.filter((l) => leaseInRange(l.ip, r)).length;
          const pct = size > 0n ? Number((BigInt(used) * 1000n) / size) / 10 : 100;
          fullness.push(`${r.subnet} ${used}/${size} (${pct}%)`);
          evidence.push(ev(`range ${r.subnet}`, `${used} of ${size} addresses leased (${pct}%)`, sec.dataDir));
          if (BigInt(used) >= size) worst = 'fail';
          else if (pct >= 90 && worst === 'ok') worst = 'warn';
        }
      }
      const remedy = `Remove the lease files of IPs no Ready sandbox holds (each file's first line is the sandbox id; check \`syncpod pods\` first), or stop and remove the NotReady sandboxes holding them (\`syncpod stopp\`/\`rmp\`) so the runtime releases them.`;
      if (worst === 'fail') {
        return {
          status: 'fail',
          summary: `A host-local range of ${c.network.name} is exhausted (${fullness.join('; ')}), ${leaked} lease(s) held by no Ready sandbox: new pods fail with "no IP addresses available".`,
          evidence,
          remedy,
        };
      }
      if (leaked > 0 || worst === 'warn') {
        return {
          status: 'warn',
          summary: `${leaked} host-local lease(s) of ${c.network.name} are held by no Ready sandbox (leaked); ranges: ${fullness.join('; ')}.`,
          evidence,
          remedy,
        };
      }
      return {
        status: 'ok',
        summary: `Every host-local lease of ${c.network.name} belongs to a Ready sandbox; ranges: ${fullness.join('; ') || 'none declared'}.`,
        evidence,
      };
    },
  },
  {
    id: 'network.ip-forward',
    group: 'network',
    title: "IPv4 forwarding on in the runtime's network namespace",
    async run(env) {
      const proc = await runtimeNetnsProc(env);
      let value: number | undefined;
      let from: string;
      if (proc) {
        from = `${proc}/net/snmp (Ip Forwarding of the runtime's network namespace)`;
        value = snmpForwarding(await env.readNodeFile(`${proc}/net/snmp`));
        value = value === 1 ? 1 : value === 2 ? 0 : undefined;
      } else {
        from = '/proc/sys/net/ipv4/ip_forward';
        const text = (await env.readNodeFile(from)).trim();
        value = text === '1' ? 1 : text === '0' ? 0 : undefined;
      }
      const evidence = [ev('net.ipv4.ip_forward', value === undefined ? 'unreadable' : String(value), from)];
      if (value === undefined)
        return { status: 'skip', summary: `Could not read IPv4 forwarding from ${from}.`, evidence };
      if (value === 1) return { status: 'ok', summary: 'IPv4 forwarding is on.', evidence };
      // The bridge plugin with isGateway turns forwarding on whenever it sets up a pod: off with no
      // pod set up yet is what a fresh node looks like; off with Ready pods means someone turned it off.
      const c = await chosenNetwork(env);
      const gateway =
        c.kind === 'network' && c.network.plugins.some((p) => p.type === 'bridge' && p.raw.isGateway === true);
      const ready = (await env.cri.sandboxes()).filter((s) => s.state === 'SANDBOX_READY').length;
      evidence.push(ev('Ready sandboxes', String(ready), 'CRI ListPodSandbox'));
      if (gateway && ready === 0 && c.kind === 'network') {
        return {
          status: 'ok',
          summary: `IPv4 forwarding is off, and the bridge plugin of ${c.network.name} (isGateway) turns it on when it sets up the first pod.`,
          evidence,
        };
      }
      return {
        status: 'fail',
        summary: 'IPv4 forwarding is off: pod traffic to other nodes and to services is not routed.',
        evidence,
        remedy: 'sysctl -w net.ipv4.ip_forward=1, and make it persistent in /etc/sysctl.d/ (kubeadm requires it).',
      };
    },
  },
  {
    id: 'network.bridge-nf-call-iptables',
    group: 'network',
    title: 'bridged pod traffic passes iptables where the bridge plugin is used',
    async run(env) {
      const c = await chosenNetwork(env);
      if (c.kind === 'outcome')
        return { status: 'skip', summary: 'No usable CNI config (see network.cni-config).', evidence: [] };
      if (!c.network.plugins.some((p) => p.type === 'bridge')) {
        return { status: 'skip', summary: `Network ${c.network.name} uses no bridge plugin.`, evidence: [] };
      }
      const path = '/proc/sys/net/bridge/bridge-nf-call-iptables';
      let text: string;
      try {
        text = (await env.readNodeFile(path)).trim();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        return {
          status: 'warn',
          summary: `${path} does not exist: br_netfilter is not loaded, so traffic between pods on the ${c.network.name} bridge bypasses iptables (Service replies are not un-NATed).`,
          evidence: [ev('br_netfilter', 'not loaded', path)],
          remedy:
            'modprobe br_netfilter (and list it in /etc/modules-load.d/), then sysctl -w net.bridge.bridge-nf-call-iptables=1.',
        };
      }
      const evidence = [ev('net.bridge.bridge-nf-call-iptables', text, path)];
      if (text === '1')
        return { status: 'ok', summary: `Bridged traffic of ${c.network.name} passes iptables.`, evidence };
      return {
        status: 'warn',
        summary: `bridge-nf-call-iptables is ${text}: traffic between pods on the ${c.network.name} bridge bypasses iptables (kube-proxy's Service NAT breaks for same-node pods).`,
        evidence,
        remedy: 'sysctl -w net.bridge.bridge-nf-call-iptables=1, persistent in /etc/sysctl.d/.',
      };
    },
  },
];
