// doctor checks of the runtime group: the CRI socket answers, speaks runtime.v1, reports
// RuntimeReady and NetworkReady, its version, its cgroup driver where it reports one, and what
// its own configuration sets (containerd's config file, version 2 or 3; CRI-O's files and flags).
import { errorLine } from '../../errors';
import { crioOrigin, type CrioConfigRead } from '../../node/crio-config';
import type { CheckOutcome, DoctorCheck, DoctorEnv, Evidence } from '../types';
import { configCgroupDriver, runtimeInfoCgroupDriver } from '../runtime-info';

const ev = (name: string, value: string, from: string): Evidence => ({ name, value, from });

/** The runtime's answer, or a skip outcome saying it could not be asked (runtime.reachable reports why). */
async function reach<V>(env: DoctorEnv, f: () => Promise<V>): Promise<V | CheckOutcome> {
  try {
    return await f();
  } catch (err) {
    return {
      status: 'skip',
      summary: `the runtime at ${env.cri.endpoint} did not answer (see runtime.reachable): ${errorLine(err)}`,
      evidence: [],
    };
  }
}
const isOutcome = (v: unknown): v is CheckOutcome =>
  typeof v === 'object' && v !== null && 'status' in v && 'evidence' in v;

function condition(type: 'RuntimeReady' | 'NetworkReady', remedy: string): DoctorCheck['run'] {
  return async (env) => {
    const status = await reach(env, () => env.cri.status());
    if (isOutcome(status)) return status;
    const conds = status.status?.conditions ?? [];
    const c = conds.find((x) => x.type === type);
    const from = `CRI Status on ${env.cri.endpoint}`;
    if (!c) {
      return {
        status: 'fail',
        summary: `the runtime reports no ${type} condition (kubelet treats a missing condition as not ready)`,
        evidence: [ev('conditions', conds.map((x) => x.type).join(', ') || 'none', from)],
        remedy,
      };
    }
    const detail = [c.reason, c.message].filter(Boolean).join(': ');
    const evidence = [ev(type, `${c.status}${detail ? ` (${detail})` : ''}`, from)];
    if (c.status) return { status: 'ok', summary: `${type} is true.`, evidence };
    return { status: 'fail', summary: `${type} is false${detail ? `: ${detail}` : ''}.`, evidence, remedy };
  };
}

function minorOf(version: string): number | undefined {
  const m = /^v?1\.(\d+)/.exec(version);
  return m ? Number(m[1]) : undefined;
}

export const runtimeChecks: DoctorCheck[] = [
  {
    id: 'runtime.reachable',
    group: 'runtime',
    title: 'the CRI socket answers within the deadline',
    async run(env) {
      const from = `CRI Version on ${env.cri.endpoint}`;
      // Its own deadline a little inside the run's, so a silent runtime is this check's finding, not a timed-out check.
      const within = Math.max(1, Math.floor(env.bounds.deadlineMs * 0.9));
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${within / 1000}s`)), within);
      });
      try {
        const v = await Promise.race([env.cri.version(), silent]);
        return {
          status: 'ok',
          summary: `${v.runtimeName} ${v.runtimeVersion} answers at ${env.cri.endpoint}.`,
          evidence: [ev('runtime', `${v.runtimeName} ${v.runtimeVersion}`, from)],
        };
      } catch (err) {
        return {
          status: 'fail',
          summary: `the runtime at ${env.cri.endpoint} does not answer: ${errorLine(err)}`,
          evidence: [ev('Version', errorLine(err), from)],
          remedy:
            'Start the runtime (systemctl status containerd / crio) or name its socket with --runtime-endpoint or CONTAINER_RUNTIME_ENDPOINT.',
        };
      } finally {
        clearTimeout(timer);
      }
    },
  },
  {
    id: 'runtime.api-version',
    group: 'runtime',
    title: 'the runtime speaks CRI runtime.v1',
    async run(env) {
      const v = await reach(env, () => env.cri.version());
      if (isOutcome(v)) return v;
      const evidence = [ev('runtimeApiVersion', v.runtimeApiVersion, `CRI Version on ${env.cri.endpoint}`)];
      if (v.runtimeApiVersion === 'v1')
        return { status: 'ok', summary: 'The runtime speaks CRI runtime.v1.', evidence };
      return {
        status: 'fail',
        summary: `The runtime speaks CRI ${v.runtimeApiVersion || 'of no stated version'}; kubelet 1.26 and newer talk runtime.v1 only.`,
        evidence,
        remedy: 'Upgrade the runtime to one that serves runtime.v1 (containerd 1.6+, CRI-O 1.23+, cri-dockerd 0.3+).',
      };
    },
  },
  {
    id: 'runtime.ready',
    group: 'runtime',
    title: 'RuntimeReady condition',
    run: condition(
      'RuntimeReady',
      "Read the runtime's log (journalctl -u containerd) for why it is not ready, fix that and restart it.",
    ),
  },
  {
    id: 'runtime.network-ready',
    group: 'runtime',
    title: 'NetworkReady condition (a CNI config loaded)',
    run: condition(
      'NetworkReady',
      "Put a valid CNI config in the runtime's CNI conf dir (/etc/cni/net.d) with its plugins in the bin dir; the runtime loads it without a restart (containerd watches the dir).",
    ),
  },
  {
    id: 'runtime.version',
    group: 'runtime',
    title: 'runtime name and version, against the kubelet',
    async run(env) {
      const v = await reach(env, () => env.cri.version());
      if (isOutcome(v)) return v;
      const evidence = [ev('runtime', `${v.runtimeName} ${v.runtimeVersion}`, `CRI Version on ${env.cri.endpoint}`)];
      const kubelet = env.profile.kubeletVersion;
      const kMinor = minorOf(kubelet.value);
      const ctd = /^v?(\d+)\.(\d+)/.exec(v.runtimeVersion);
      if (
        v.runtimeName === 'containerd' &&
        ctd &&
        Number(ctd[1]) < 2 &&
        env.profile.detected &&
        kMinor !== undefined &&
        kMinor >= 35
      ) {
        evidence.push(ev('kubelet', kubelet.value, kubelet.from ?? kubelet.source));
        return {
          status: 'warn',
          summary:
            kMinor === 35
              ? `containerd ${v.runtimeVersion} is a 1.x release; kubelet ${kubelet.value} is of the last Kubernetes minor (1.35) that supports containerd 1.x.`
              : `containerd ${v.runtimeVersion} is a 1.x release, which kubelet ${kubelet.value} no longer supports (1.35 was the last minor that did).`,
          evidence,
          remedy: kMinor === 35 ? 'Move to containerd 2.x before the next kubelet upgrade.' : 'Move to containerd 2.x.',
        };
      }
      return { status: 'ok', summary: `${v.runtimeName} ${v.runtimeVersion}.`, evidence };
    },
  },
  {
    id: 'runtime.cgroup-driver',
    group: 'runtime',
    title: "the runtime's cgroup driver",
    async run(env) {
      const rc = await env.cri.runtimeConfig();
      if (rc.answered) {
        return {
          status: 'ok',
          summary: `The runtime uses the ${rc.cgroupDriver} cgroup driver.`,
          evidence: [ev('cgroupDriver', rc.cgroupDriver, `CRI RuntimeConfig on ${rc.endpoint}`)],
        };
      }
      const status = await reach(env, () => env.cri.status());
      if (isOutcome(status)) return status;
      const info = runtimeInfoCgroupDriver(status);
      if (info) {
        return {
          status: 'ok',
          summary: `The runtime uses the ${info.driver} cgroup driver (from its configuration; RuntimeConfig: ${rc.why}).`,
          evidence: [
            ev('cgroupDriver', info.driver, info.from),
            ev('RuntimeConfig', rc.why, `CRI RuntimeConfig on ${env.cri.endpoint}`),
          ],
        };
      }
      const file = configCgroupDriver(env.profile);
      if (file) {
        return {
          status: 'ok',
          summary: `The runtime uses the ${file.driver} cgroup driver (from ${env.profile.crioConfig?.found ? "CRI-O's config" : "containerd's config file"}; RuntimeConfig: ${rc.why}; no runc options in Status info).`,
          evidence: [
            ev('cgroupDriver', file.driver, file.from),
            ev('RuntimeConfig', rc.why, `CRI RuntimeConfig on ${env.cri.endpoint}`),
          ],
        };
      }
      return {
        status: 'skip',
        summary: `The runtime does not report its cgroup driver (RuntimeConfig: ${rc.why}; no runc options in Status info; ${configNotRead(env.profile)}).`,
        evidence: [],
      };
    },
  },
  {
    id: 'runtime.config-file',
    group: 'runtime',
    title:
      "the runtime's own configuration (containerd's config file, version 2 or 3; CRI-O's crio.conf, drop-ins and flags): cgroup driver, CNI dirs, sandbox image",
    async run(env) {
      if (env.profile.crioConfig) return crioConfigCheck(env, env.profile.crioConfig);
      const read = env.profile.containerdConfig;
      if (!read) return { status: 'skip', summary: "containerd's config file was not looked for.", evidence: [] };
      if (!read.found) {
        // A file containerd would refuse at its next start is the finding; no containerd is not.
        const broken = / must be |: not TOML /.test(read.why);
        return broken
          ? {
              status: 'fail',
              summary: `containerd's config file is not valid: ${read.why}; containerd refuses to start with it (at its next restart).`,
              evidence: [ev('config', read.why, 'containerd config file')],
              remedy: 'Fix the key named above (containerd config dump shows what the running containerd took).',
            }
          : { status: 'skip', summary: `containerd's config file was not read: ${read.why}.`, evidence: [] };
      }
      const c = read.config;
      const main = c.files[0];
      const where = (v: { key: string; file?: string }) =>
        v.file ? `${v.file} ${v.key}` : `default (${v.key} not set)`;
      const evidence = [
        ev('file', `${main} (version ${c.version})`, read.via),
        ...c.files.slice(1).map((f) => ev('import', f, main)),
        ev(`cgroup driver (runtime ${c.runtimeName.value})`, c.cgroupDriver.value, where(c.cgroupDriver)),
        ev('CNI bin dirs', c.cniBinDirs.value.join(', '), where(c.cniBinDirs)),
        ev('CNI conf dir', c.cniConfDir.value, where(c.cniConfDir)),
        ev('restrict_oom_score_adj', String(c.restrictOOMScoreAdj.value), where(c.restrictOOMScoreAdj)),
        ev(
          'sandbox image',
          c.sandboxImage?.value ?? "not set (the release's default)",
          c.sandboxImage ? where(c.sandboxImage) : main,
        ),
      ];
      const rc = await env.cri.runtimeConfig();
      if (rc.answered && rc.cgroupDriver !== c.cgroupDriver.value) {
        evidence.push(ev('cgroupDriver in use', rc.cgroupDriver, `CRI RuntimeConfig on ${rc.endpoint}`));
        return {
          status: 'warn',
          summary: `containerd's config file gives the ${c.cgroupDriver.value} cgroup driver but the running containerd uses ${rc.cgroupDriver}: the file changed after containerd started, and its next restart changes the driver under running pods.`,
          evidence,
          remedy: `Make the file say what is meant (${c.cgroupDriver.key}), then restart containerd and the kubelet together with the kubelet's cgroupDriver to match.`,
        };
      }
      return {
        status: 'ok',
        summary: `containerd reads ${main} (version ${c.version}): ${c.cgroupDriver.value} cgroups, CNI in ${c.cniConfDir.value}.`,
        evidence,
      };
    },
  },
];

/** Why the runtime's own configuration was not read, for a summary. */
function configNotRead(p: DoctorEnv['profile']): string {
  if (p.crioConfig && !p.crioConfig.found) return `CRI-O config: ${p.crioConfig.why}`;
  if (p.containerdConfig && !p.containerdConfig.found) return `containerd config: ${p.containerdConfig.why}`;
  return 'no runtime config read';
}

/** runtime.config-file on CRI-O: the files it reads (main file, drop-ins), what they and its flags give. */
async function crioConfigCheck(env: DoctorEnv, read: CrioConfigRead): Promise<CheckOutcome> {
  if (!read.found) {
    // A crio serves the endpoint but its configuration cannot be taken: the value CRI-O refuses is the finding.
    const broken = / must be |: not TOML /.test(read.why);
    return broken
      ? {
          status: 'fail',
          summary: `CRI-O's configuration is not valid: ${read.why}; CRI-O refuses to start with it (at its next restart).`,
          evidence: [ev('config', read.why, `crio pid ${read.pid}`)],
          remedy: 'Fix the key named above (crio config prints what CRI-O would take from its files).',
        }
      : { status: 'skip', summary: `CRI-O's configuration was not read: ${read.why}.`, evidence: [] };
  }
  const c = read.config;
  const main =
    c.mainFile.path === '' ? 'none (--config "")' : c.mainFile.read ? c.mainFile.path : `${c.mainFile.path} (absent)`;
  const dropIns = c.files.slice(c.mainFile.read ? 1 : 0);
  const evidence = [
    ev('file', main, read.via),
    ...dropIns.map((f) => ev('drop-in', f, c.dropInDir)),
    ev('cgroup manager', c.cgroupManager.value, crioOrigin(c.cgroupManager)),
    ev('CNI plugin dirs', c.pluginDirs.value.join(', '), crioOrigin(c.pluginDirs)),
    ev('CNI conf dir', c.networkDir.value, crioOrigin(c.networkDir)),
    ev(
      'pause image',
      c.pauseImage?.value ?? "not set (the release's default)",
      c.pauseImage ? crioOrigin(c.pauseImage) : c.mainFile.path,
    ),
  ];
  const rc = await env.cri.runtimeConfig();
  if (rc.answered && rc.cgroupDriver !== c.cgroupManager.value) {
    evidence.push(ev('cgroupDriver in use', rc.cgroupDriver, `CRI RuntimeConfig on ${rc.endpoint}`));
    return {
      status: 'warn',
      summary: `CRI-O's config gives the ${c.cgroupManager.value} cgroup manager but the running CRI-O uses ${rc.cgroupDriver}: the config changed after CRI-O started, and its next restart changes the driver under running pods.`,
      evidence,
      remedy: `Make the config say what is meant (${crioOrigin(c.cgroupManager)}), then restart CRI-O and the kubelet together with the kubelet's cgroupDriver to match.`,
    };
  }
  return {
    status: 'ok',
    summary: `CRI-O reads ${main}${dropIns.length ? ` and ${dropIns.length} drop-in${dropIns.length === 1 ? '' : 's'}` : ''}: ${c.cgroupManager.value} cgroups, CNI in ${c.networkDir.value}.`,
    evidence,
  };
}
