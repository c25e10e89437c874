// The upgrade preview against the kubelet itself (npm run test:kubelet-start; needs root and the kubelet
// that `npm run anchors:kubelet` builds, named by KUBELET or .anchors/kubelet-v1.37.2/kubelet). For each
// node below, a stand-in kubelet runs with a command line and config file; `plan --upgrade-to 1.37` says
// whether kubelet 1.37 would start and which precondition stops it; then the real kubelet v1.37.2 is
// started with the same command line and config (standalone: no API server) and must refuse exactly when
// the preview says so — with the refusal the preview names — and keep running when it says it starts.
// Not part of `npm test`: the build takes 13–40 minutes of 2 busy cores the first time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLab, BUSYBOX_IMAGE, type Lab } from '../harness/lab';
import { startStandInKubelet } from '../harness/stand-in-kubelet';
import { syncpod } from '../e2e/helpers';
import { writeManifest } from '../e2e/sync-helpers';

const KUBELET = process.env.KUBELET || path.join(__dirname, '..', '..', '.anchors', 'kubelet-v1.37.2', 'kubelet');
const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
/** How long a kubelet that passed its start-up checks is watched before it counts as started. */
const RUNNING_MS = 20_000;

let lab: Lab;
let dir: string;
let manifest: string;

before(async () => {
  if (!fs.existsSync(KUBELET))
    throw new Error(`${KUBELET} does not exist: run npm run anchors:kubelet (or set KUBELET)`);
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-real-kubelet-'));
  manifest = writeManifest(dir, {
    name: 'web',
    uid: '5b1d2e3f-0000-4000-8000-00000000d137',
    containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
  });
});
after(async () => {
  await lab?.stop();
  if (!dir) return;
  // A kubelet that started bind-mounts its root dir onto itself (shared): undo its mounts first.
  const mounts = fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((m): m is string => !!m && m.startsWith(`${dir}/`))
    .reverse();
  for (const m of mounts) spawnSync('umount', ['-l', m]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the real kubelet; resolves with its exit (code and log) or 'running' after RUNNING_MS (then kills it). */
function runRealKubelet(args: string[], cwd: string): Promise<{ running: boolean; code: number | null; log: string }> {
  return new Promise((resolve) => {
    // In a PID namespace of its own (as the stand-ins), so that no other syncpod run on this machine
    // finds it in /proc and takes it for its node's kubelet; --kill-child takes it down with unshare.
    const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', '--kill-child', KUBELET, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ running: true, code: null, log });
    }, RUNNING_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ running: false, code, log });
    });
  });
}

interface NodeCase {
  name: string;
  config: string;
  flags: string[];
  /** What the real kubelet prints when it refuses (undefined: it starts). */
  refusal?: RegExp;
  rule?: string;
}

// Every node keeps the kubelet small on this shared machine: its own root dir, no QoS cgroups, no
// node allocatable enforcement, no server; standalone (no --kubeconfig, no webhook auth).
const quiet = (root: string) =>
  `${HEAD}cgroupsPerQOS: false\nenforceNodeAllocatable: []\nreadOnlyPort: 0\nhealthzPort: 0\n` +
  `enableServer: false\nfailSwapOn: false\ncontainerRuntimeEndpoint: ${lab.endpoint}\n` +
  // standalone: no API server to ask for webhook authentication/authorization
  'authentication:\n  webhook:\n    enabled: false\n  anonymous:\n    enabled: true\nauthorization:\n  mode: AlwaysAllow\n' +
  `podLogsDir: ${root}/pod-logs\n`;

const CASES = (root: string): NodeCase[] => [
  {
    name: 'cgroup v1 with failCgroupV1 at its 1.37 default (true)',
    config: quiet(root),
    flags: [],
    refusal: /configured to not run on a host using cgroup v1/,
    rule: 'cgroup-v1',
  },
  {
    name: 'cgroup v1 kept with failCgroupV1: false',
    config: `${quiet(root)}failCgroupV1: false\n`,
    flags: [],
  },
  {
    name: 'a flag 1.37 removed (--pod-infra-container-image)',
    config: `${quiet(root)}failCgroupV1: false\n`,
    flags: ['--pod-infra-container-image=registry.k8s.io/pause:3.10'],
    refusal: /unknown flag: --pod-infra-container-image/,
    rule: 'flag-removed',
  },
  {
    name: 'a gate 1.37 locks (InPlacePodVerticalScaling=false in the config)',
    config: `${quiet(root)}failCgroupV1: false\nfeatureGates:\n  InPlacePodVerticalScaling: false\n`,
    flags: [],
    refusal: /cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true/,
    rule: 'gate-locked',
  },
  {
    name: 'a gate 1.37 no longer knows (--feature-gates=AnyVolumeDataSource=true)',
    config: `${quiet(root)}failCgroupV1: false\n`,
    flags: ['--feature-gates=AnyVolumeDataSource=true'],
    refusal: /unrecognized feature gate: AnyVolumeDataSource/,
    rule: 'gate-removed',
  },
  {
    name: 'validation new in 1.37 (memoryThrottlingFactor without MemoryQoS)',
    config: `${quiet(root)}failCgroupV1: false\nmemoryThrottlingFactor: 0.8\nfeatureGates:\n  MemoryQoS: false\n`,
    flags: [],
    refusal: /memoryThrottlingFactor must not be set when MemoryQoS feature gate is disabled/,
    rule: 'config-validation',
  },
];

describe('plan --upgrade-to 1.37 against kubelet v1.37.2 itself', () => {
  test('each node: the real kubelet refuses exactly when the preview says, with the refusal it names', async () => {
    const root = path.join(dir, 'kubelet-root');
    fs.mkdirSync(root, { recursive: true });
    const results: string[] = [];
    for (const [i, c] of CASES(root).entries()) {
      const nodeDir = path.join(dir, `node-${i}`);
      fs.mkdirSync(nodeDir);
      fs.writeFileSync(path.join(nodeDir, 'config.yaml'), c.config);
      const args = ['--config', 'config.yaml', `--root-dir=${root}`, ...c.flags];
      const standIn = await startStandInKubelet({ dir: nodeDir, version: 'v1.34.2', args, cwd: nodeDir });
      let preview: any;
      try {
        const r = await syncpod(['plan', '--upgrade-to', '1.37', '-o', 'json', manifest], {
          prefix: standIn.inside,
          timeoutMs: 120000,
        });
        assert.equal(r.code, 0, r.stderr);
        preview = JSON.parse(r.stdout).node;
      } finally {
        standIn.stop();
      }
      const real = await runRealKubelet(args, nodeDir);
      const lastLines = real.log.trim().split('\n').slice(-3).join(' | ');
      results.push(
        `${c.name}: preview ${preview.starts ? 'starts' : `refuses (${preview.blockers.map((b: any) => b.rule)})`}; kubelet ${real.running ? 'running' : `exited ${real.code}`}`,
      );
      assert.equal(preview.starts, c.refusal === undefined, `${c.name}: preview ${JSON.stringify(preview.blockers)}`);
      assert.equal(real.running, preview.starts, `${c.name}: the real kubelet: ${lastLines}`);
      if (c.refusal) {
        assert.deepEqual(
          preview.blockers.map((b: any) => b.rule),
          [c.rule],
          c.name,
        );
        assert.match(real.log, c.refusal, `${c.name}: ${lastLines}`);
      }
    }
    console.log(results.join('\n'));
  });
});
