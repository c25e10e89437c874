// doctor checks of the kubelet group, from the node profile (the running kubelet's process, flags,
// config file and drop-ins, binary): found, its version within the mirrored minors, config readable,
// cgroup driver agreement with the runtime, the sandbox image, staticPodPath and its pods.
import { NEWEST_MINOR, OLDEST_MINOR, SUPPORTED_RANGE } from '../../kubelet/features';
import type { Sourced } from '../../node/types';
import type { CheckOutcome, DoctorCheck, DoctorEnv, Evidence } from '../types';
import {
  configCgroupDriver,
  configSandboxImage,
  imageMatches,
  pinnedSandboxImage,
  runtimeInfoCgroupDriver,
  runtimeSandboxImage,
} from '../runtime-info';
import { allInOrder } from '../../cri/together';

const ev = (name: string, value: string, from: string): Evidence => ({ name, value, from });
const where = (s: Sourced<unknown>): string => (s.from ? `${s.source} ${s.from}` : s.source);

/** kubelet.found's finding when no kubelet runs; the report names the checks it skips (coveredBy). */
const NO_KUBELET: CheckOutcome = {
  status: 'skip',
  summary: 'No kubelet process was found in /proc (or --no-node-profile): nothing of the kubelet to check.',
  evidence: [],
};
/** What the checks that read the kubelet return then: folded into kubelet.found's row. */
const SKIPPED_NO_KUBELET: CheckOutcome = { ...NO_KUBELET, coveredBy: 'kubelet.found' };

/** The kubelet's --pod-infra-container-image flag, as its command line gives it. */
export function podInfraContainerImage(args: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const m = /^--?pod-infra-container-image(?:=(.*))?$/.exec(a);
    if (m) value = m[1] ?? args[++i];
  }
  return value;
}

/**
 * The runtime's cgroup driver: its RuntimeConfig answer, else its configuration in Status info, else
 * its own configuration (containerd's config file, CRI-O's crio.conf and drop-ins).
 */
async function runtimeDriver(env: DoctorEnv): Promise<{ driver: 'systemd' | 'cgroupfs'; from: string } | undefined> {
  const rc = await env.cri.runtimeConfig();
  if (rc.answered) return { driver: rc.cgroupDriver, from: `CRI RuntimeConfig on ${rc.endpoint}` };
  try {
    const info = runtimeInfoCgroupDriver(await env.cri.status());
    if (info) return info;
  } catch {
    /* the runtime's file may still say */
  }
  return configCgroupDriver(env.profile);
}

export const kubeletChecks: DoctorCheck[] = [
  {
    id: 'kubelet.found',
    group: 'kubelet',
    title: 'a kubelet process runs',
    async run(env) {
      const k = env.profile.kubelet;
      if (k)
        return {
          status: 'ok',
          summary: `kubelet runs as pid ${k.pid} (${k.exe}).`,
          evidence: [ev('pid', String(k.pid), `/proc/${k.pid}/exe -> ${k.exe}`)],
        };
      if (env.profileError)
        return {
          status: 'ok',
          summary: 'A kubelet process runs, but its configuration could not be read (see kubelet.config).',
          evidence: [ev('kubelet', env.profileError, '/proc')],
        };
      return NO_KUBELET;
    },
  },
  {
    id: 'kubelet.version',
    group: 'kubelet',
    title: 'the kubelet version is one syncpod mirrors',
    async run(env) {
      const k = env.profile.kubelet;
      if (!k) return SKIPPED_NO_KUBELET;
      const v = env.profile.kubeletVersion;
      if (v.source !== 'kubelet-binary') {
        return {
          status: 'skip',
          summary: `The kubelet's version was not read from its binary (${v.source === 'flag' ? `given as ${v.from}` : `${k.exe} --version gave no answer`}).`,
          evidence: [ev('kubeletVersion', v.value, where(v))],
        };
      }
      const evidence = [ev('kubeletVersion', v.value, `${k.exe} --version`)];
      const m = /^v?1\.(\d+)/.exec(v.value);
      const minor = m ? Number(m[1]) : undefined;
      if (minor === undefined)
        return {
          status: 'warn',
          summary: `The kubelet's version "${v.value}" is not one syncpod can read; plans follow 1.${NEWEST_MINOR}.`,
          evidence,
          remedy: 'Give the version with --kubelet-version.',
        };
      if (minor > NEWEST_MINOR) {
        return {
          status: 'warn',
          summary: `kubelet ${v.value} is newer than any rules syncpod mirrors (${SUPPORTED_RANGE}); plans follow 1.${NEWEST_MINOR}.`,
          evidence,
          remedy: 'Use a syncpod release that mirrors this kubelet minor before trusting its plans.',
        };
      }
      if (minor < OLDEST_MINOR) {
        return {
          status: 'warn',
          summary: `kubelet ${v.value} is older than the rules syncpod mirrors (${SUPPORTED_RANGE}); plans follow 1.${OLDEST_MINOR}.`,
          evidence,
          remedy: 'Upgrade the kubelet (this minor is out of upstream support too).',
        };
      }
      return {
        status: 'ok',
        summary: `kubelet ${v.value} is within the minors syncpod mirrors (${SUPPORTED_RANGE}).`,
        evidence,
      };
    },
  },
  {
    id: 'kubelet.config',
    group: 'kubelet',
    title: 'the kubelet config file and drop-ins are readable',
    async run(env) {
      if (env.profileError) {
        return {
          status: 'fail',
          summary: `The kubelet's configuration cannot be read: ${env.profileError}`,
          evidence: [ev('error', env.profileError, 'kubelet --config / --config-dir')],
          remedy: 'Fix the file named; the kubelet refuses to start with it too (check journalctl -u kubelet).',
        };
      }
      const k = env.profile.kubelet;
      if (!k) return SKIPPED_NO_KUBELET;
      const evidence: Evidence[] = [];
      if (k.configFile) evidence.push(ev('config', k.configFile, `/proc/${k.pid}/cmdline --config`));
      if (k.configDir)
        evidence.push(
          ev(
            'config-dir',
            `${k.configDir} (${k.dropIns.length} drop-in${k.dropIns.length === 1 ? '' : 's'})`,
            `/proc/${k.pid}/cmdline --config-dir`,
          ),
        );
      for (const d of k.dropIns) evidence.push(ev('drop-in', d, k.configDir ?? ''));
      if (!k.configFile && !k.configDir)
        return {
          status: 'ok',
          summary: 'The kubelet runs on flags and defaults alone (no --config, no --config-dir).',
          evidence: [ev('args', k.args.join(' '), `/proc/${k.pid}/cmdline`)],
        };
      return {
        status: 'ok',
        summary: `The kubelet's configuration is readable${k.dropIns.length ? `, with ${k.dropIns.length} drop-in${k.dropIns.length === 1 ? '' : 's'}` : ''}.`,
        evidence,
      };
    },
  },
  {
    id: 'kubelet.cgroup-driver',
    group: 'kubelet',
    title: 'the kubelet and the runtime use the same cgroup driver',
    async run(env) {
      const p = env.profile;
      if (!p.kubelet && p.cgroupDriver.source !== 'flag') return SKIPPED_NO_KUBELET;
      const rt = await runtimeDriver(env);
      if (!rt)
        return {
          status: 'skip',
          summary:
            'The runtime reports no cgroup driver (no RuntimeConfig answer, no runc options in Status info): nothing to compare.',
          evidence: [ev('kubelet cgroupDriver', p.cgroupDriver.value, where(p.cgroupDriver))],
        };
      const evidence = [
        ev('kubelet cgroupDriver', p.cgroupDriver.value, where(p.cgroupDriver)),
        ev('runtime cgroup driver', rt.driver, rt.from),
      ];
      if (p.cgroupDriver.source === 'runtime')
        return {
          status: 'ok',
          summary: `kubelet ${p.kubeletVersion.value} takes the runtime's cgroup driver (${rt.driver}).`,
          evidence,
        };
      if (p.cgroupDriver.value === rt.driver)
        return { status: 'ok', summary: `The kubelet and the runtime both use ${rt.driver}.`, evidence };
      return {
        status: 'fail',
        summary: `The kubelet uses the ${p.cgroupDriver.value} cgroup driver but the runtime uses ${rt.driver}: pod sandboxes fail to start or land in the wrong cgroup.`,
        evidence,
        remedy: `Set the same driver on both sides: cgroupDriver: ${rt.driver} in the kubelet's config (${p.cgroupDriver.from ?? 'KubeletConfiguration'}), or ${p.crioConfig?.found ? `CRI-O's cgroup_manager = "${p.cgroupDriver.value}" (${p.crioConfig.config.cgroupManager.file ?? 'a file in its crio.conf.d'})` : `the runtime's SystemdCgroup = ${p.cgroupDriver.value === 'systemd'}`} ; then restart both.`,
      };
    },
  },
  {
    id: 'kubelet.sandbox-image',
    group: 'kubelet',
    title: 'the sandbox (pause) image is on the node, and kubelet keeps it',
    async run(env) {
      const kubeletImage = env.profile.kubelet ? podInfraContainerImage(env.profile.kubelet.args) : undefined;
      const [status, images] = await allInOrder([env.cri.status(), env.cri.images()]);
      const rt = runtimeSandboxImage(status) ?? configSandboxImage(env.profile) ?? pinnedSandboxImage(images);
      const evidence: Evidence[] = [];
      if (rt) evidence.push(ev('runtime sandbox image', rt.image, rt.from));
      if (kubeletImage)
        evidence.push(
          ev('kubelet --pod-infra-container-image', kubeletImage, `/proc/${env.profile.kubelet!.pid}/cmdline`),
        );
      const image = rt?.image ?? kubeletImage;
      if (!image)
        return {
          status: 'skip',
          summary:
            'Neither the runtime (Status info) nor the kubelet (--pod-infra-container-image) names a sandbox image.',
          evidence,
        };
      const found = images.find((i) => imageMatches(image, [...i.repoTags, ...i.repoDigests]));
      evidence.push(
        ev(
          `${image} present`,
          found ? `yes (${found.id.slice(0, 19)}${found.pinned ? ', pinned' : ''})` : 'no',
          'CRI ListImages',
        ),
      );
      if (!found) {
        return {
          status: 'fail',
          summary: `The sandbox image ${image} is not on the node: every new pod sandbox needs it pulled first (and fails where the registry cannot be reached).`,
          evidence,
          remedy: `Pull it again (syncpod pull ${image}, or ctr -n k8s.io images import on an air-gapped node); pin it so image GC keeps it.`,
        };
      }
      if (rt && kubeletImage && !imageMatches(rt.image, [kubeletImage])) {
        return {
          status: 'warn',
          summary: `The kubelet names ${kubeletImage} as the sandbox image but the runtime uses ${rt.image}: kubelet's image GC does not keep the runtime's.`,
          evidence,
          remedy: `Set --pod-infra-container-image=${rt.image} on the kubelet (or the runtime's sandbox image to ${kubeletImage}).`,
        };
      }
      if (env.profile.kubelet && !found.pinned && !kubeletImage) {
        return {
          status: 'warn',
          summary: `The sandbox image ${image} is present but not pinned, and the kubelet does not name it: kubelet's image GC may remove it under disk pressure.`,
          evidence,
          remedy: `Pin it in the runtime (containerd 1.7+ pins its sandbox image) or name it with the kubelet's --pod-infra-container-image=${image}.`,
        };
      }
      return {
        status: 'ok',
        summary: `The sandbox image ${image} is present${found.pinned ? ' and pinned' : ''}.`,
        evidence,
      };
    },
  },
  {
    id: 'kubelet.static-pods',
    group: 'kubelet',
    title: 'staticPodPath is readable and its pods valid',
    async run(env) {
      const sp = env.profile.staticPodPath;
      if (!sp.value)
        return {
          status: 'skip',
          summary: 'No staticPodPath is configured.',
          evidence: [ev('staticPodPath', '', where(sp))],
        };
      const dir = sp.value.replace(/\/+$/, '') || '/';
      const node = await env.nodePlan();
      const mine = node.plan.problems.filter((p) => p.startsWith(`${dir}/`) || p.startsWith(`staticPodPath ${dir}`));
      const pods = node.plan.plans.filter((p) => p.source.kind === 'static-pod');
      const evidence = [
        ev('staticPodPath', dir, where(sp)),
        ev('static pods', pods.map((p) => `${p.pod.namespace}/${p.pod.name}`).join(', ') || 'none', env.nodePath(dir)),
      ];
      for (const m of mine) evidence.push(ev('refused', m, dir));
      if (mine.some((m) => m.startsWith('staticPodPath'))) {
        return {
          status: 'warn',
          summary: `staticPodPath ${dir} does not exist: kubelet runs no static pods from it.`,
          evidence,
          remedy: `Create ${dir} or correct staticPodPath in the kubelet's config.`,
        };
      }
      if (mine.length) {
        return {
          status: 'fail',
          summary: `${mine.length} static pod file${mine.length === 1 ? '' : 's'} in ${dir} kubelet would refuse: ${mine[0]}`,
          evidence,
          remedy:
            'Fix or remove the files named (syncpod plan --node shows each problem); kubelet skips them silently apart from its log.',
        };
      }
      return {
        status: 'ok',
        summary: `${pods.length} static pod${pods.length === 1 ? '' : 's'} in ${dir}, all valid.`,
        evidence,
      };
    },
  },
];
