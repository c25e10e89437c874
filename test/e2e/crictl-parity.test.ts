// Live parity with crictl v1.37.0 (built by `npm run anchors`): every look command and output format
// runs through crictl and syncpod against the same runtime state, and the outputs must be the same
// bytes. Where they differ on purpose, the case names the difference and the transformation that
// removes it (README, "Parity with crictl 1.37"), so anything beyond it still fails.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, buildImages, crictlBinary, labRuntime, startLab, type Lab } from '../harness/lab';
import { CriService, type RuntimeMethods } from '../../src/cri/grpc-runtime-service';
import { syncpod, type RunResult } from './helpers';
import { parse as parseYaml } from 'yaml';
import { kubeletSandboxConfig, runKubeletContainer, waitFor, type KubeletSandboxConfig } from './cri-pods';

let lab: Lab;
let rt: CriService<RuntimeMethods>;
let crictl: string;
let emptyConfig: string;
const ids = {
  ready: '',
  notReady: '',
  running: '',
  exited: '',
  stopped: '',
  userns: '',
  metered: '',
  /** Attempt 1 of "retry" (attempt 0 still listed) and of "gone" (attempt 0 removed, its log left, as kubelet's GC leaves it). */
  retry: '',
  gone: '',
};
/** The cgroup parent of the "metered" pod: containerd 1.6 has pod stats only for a sandbox with one. */
let meteredCgroup = '';
/** User-namespaced pods: containerd 2.x runs them here (idmapped; 1.6 has no support for them). */
const USERNS = labRuntime().kind === 'containerd2';
/** Images whose config names a User: CRI gives a numeric one as the image's uid (0 too), a name as username. */
const USER_IMAGES = [
  { tags: ['localhost/syncpod/user:1000'], entrypoint: [], cmd: ['/bin/sh'], user: '1000' },
  { tags: ['localhost/syncpod/user:root'], entrypoint: [], cmd: ['/bin/sh'], user: '0' },
  { tags: ['localhost/syncpod/user:named'], entrypoint: [], cmd: ['/bin/sh'], user: 'nobody' },
];

/** The pods' annotations: a note, and long values that go-yaml folds past 80 columns (plain, single- and double-quoted; double spaces). */
const POD_ANNOTATIONS = {
  'example.com/note': 'parity',
  'example.com/long-plain':
    'this annotation is long enough to pass the eighty columns of go-yaml so that its emitter folds it at a space, twice  with two spaces here and then more words to fold again',
  'example.com/long-single':
    '{"note": "a JSON value that go-yaml single-quotes, long enough to be folded at a space past the eighty columns of its emitter"}',
  'example.com/long-double':
    'a tab\there makes this value double-quoted, and it is long enough to be folded by the go-yaml emitter at a space  past eighty columns',
};

const sandboxConfig = (name: string, uid: string, labels: Record<string, string>) =>
  kubeletSandboxConfig(lab, { name, namespace: 'team-a', uid }, { labels, annotations: POD_ANNOTATIONS });

const runContainer = (podId: string, sb: KubeletSandboxConfig, name: string, command: string[]) =>
  runKubeletContainer(rt, podId, sb, name, command, { annotations: { 'io.kubernetes.container.restartCount': '0' } });

function runCrictl(args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(crictl, ['--config', emptyConfig, '-r', lab.endpoint, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/root', ...lab.env, CRI_CONFIG_FILE: emptyConfig },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface Case {
  /** Arguments; @ready, @notReady, @running, @exited, @stopped stand for the IDs made in before(), @x8 for an 8-character prefix. */
  args: string[];
  /** A difference kept on purpose: why, and how the outputs are brought together before comparing. */
  differs?: { why: string; normalize: (out: string) => string };
}

/**
 * "N seconds ago" is each tool's own clock read at its own start (Node starts slower than a Go
 * binary, by more than a second on a loaded machine), so a count of seconds under a minute is
 * compared as such, not by its number; minutes and longer, and every other byte, must agree.
 */
function normalize(c: Case, out: string): string {
  const text = out.replace(/\b(\d+ seconds|1 second|Less than a second) ago\b/g, '<seconds> ago');
  return c.differs ? c.differs.normalize(text) : text;
}

/** The arguments with @name (and @name8, an 8-character prefix) replaced by the IDs made in before(). */
function withIds(args: string[]): string[] {
  return args.map((a) => {
    const m = /^@(\w+?)(8?)$/.exec(a);
    if (!m) return a;
    const id = ids[m[1] as keyof typeof ids];
    return m[2] ? id.slice(0, 8) : id;
  });
}

/**
 * Runs both and compares stdout and the exit code. Tables say "N seconds ago", so a pair taken across
 * a second boundary is taken again (at most three times, a second apart: on a loaded machine syncpod
 * reads the clock a second after crictl, and "9 seconds ago" beside "10 seconds ago" pads the table's
 * columns differently until both counts have two digits); a real difference stays different.
 */
async function compare(c: Case): Promise<void> {
  const args = withIds(c.args);
  let last: { ours: RunResult; theirs: RunResult } | undefined;
  for (let i = 0; i < 3; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 1000));
    // Both at once, so both read the same clock for "N seconds ago".
    const [theirs, ours] = await Promise.all([runCrictl(args), syncpod(args, { env: lab.env })]);
    last = { ours, theirs };
    if (ours.code === theirs.code && normalize(c, ours.stdout) === normalize(c, theirs.stdout)) return;
  }
  const { ours, theirs } = last as { ours: RunResult; theirs: RunResult };
  assert.equal(
    ours.code === 0 ? 0 : 1,
    theirs.code === 0 ? 0 : 1,
    `exit codes differ for ${args.join(' ')}\nsyncpod stderr: ${ours.stderr}\ncrictl stderr: ${theirs.stderr}`,
  );
  const a = normalize(c, ours.stdout);
  const b = normalize(c, theirs.stdout);
  if (a !== b) assert.fail(`syncpod ${args.join(' ')} differs from crictl 1.37:\n${lineDiff(a, b)}`);
}

/** The lines that differ (syncpod's with -, crictl's with +), with the first one's line number. */
function lineDiff(ours: string, theirs: string): string {
  const a = ours.split('\n');
  const b = theirs.split('\n');
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length) && out.length < 24; i++) {
    if (a[i] === b[i]) continue;
    out.push(`line ${i + 1}:`, `- ${JSON.stringify(a[i])}`, `+ ${JSON.stringify(b[i])}`);
  }
  return out.join('\n');
}

before(async () => {
  crictl = crictlBinary();
  emptyConfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-parity-')), 'crictl.yaml');
  fs.writeFileSync(emptyConfig, '');
  lab = await startLab();
  rt = new CriService<RuntimeMethods>(lab.endpoint, 'RuntimeService', { timeoutMs: 30000 });
  const a = sandboxConfig('web', 'uid-web-1', { app: 'web', tier: 'front' });
  const b = sandboxConfig('db', 'uid-db-1', { app: 'db' });
  ids.ready = (await rt.call('RunPodSandbox', { config: a }, { timeoutMs: 60000 })).podSandboxId;
  ids.notReady = (await rt.call('RunPodSandbox', { config: b }, { timeoutMs: 60000 })).podSandboxId;
  ids.running = await runContainer(ids.ready, a, 'app', ['sh', '-c', 'echo hello; echo oops >&2; sleep 3600']);
  ids.exited = await runContainer(ids.ready, a, 'once', ['sh', '-c', 'echo done; exit 3']);
  ids.stopped = await runContainer(ids.notReady, b, 'logger', [
    'sh',
    '-c',
    'for i in 1 2 3; do echo line-$i; done; sleep 3600',
  ]);
  await waitFor(
    async () => (await rt.call('ContainerStatus', { containerId: ids.exited })).status?.state === 'CONTAINER_EXITED',
    'the once container to exit',
  );
  // Restarted containers: attempt 1 after an attempt 0 that exited, for logs --previous.
  const exitOf = (id: string) => async () =>
    (await rt.call('ContainerStatus', { containerId: id })).status?.state === 'CONTAINER_EXITED';
  for (const name of ['retry', 'gone'] as const) {
    const first = await runKubeletContainer(
      rt,
      ids.ready,
      a,
      name,
      ['sh', '-c', `echo ${name}-first; echo err-first >&2; exit 1`],
      {
        annotations: { 'io.kubernetes.container.restartCount': '0' },
      },
    );
    await waitFor(exitOf(first), `${name} attempt 0 to exit`);
    ids[name] = await runKubeletContainer(rt, ids.ready, a, name, ['sh', '-c', `echo ${name}-second; exit 0`], {
      attempt: 1,
      annotations: { 'io.kubernetes.container.restartCount': '1' },
    });
    await waitFor(exitOf(ids[name]), `${name} attempt 1 to exit`);
    if (name === 'gone') await rt.call('RemoveContainer', { containerId: first }, { timeoutMs: 30000 });
  }
  const logPath = path.join(b.logDirectory, 'logger/0.log');
  await waitFor(async () => fs.existsSync(logPath) && fs.readFileSync(logPath, 'utf8').includes('line-3'), 'logs');
  // Both lines of "app" in its log before any case reads it: a log still being written could give
  // the two tools two different answers.
  const appLog = path.join(a.logDirectory, 'app/0.log');
  await waitFor(async () => {
    const text = fs.existsSync(appLog) ? fs.readFileSync(appLog, 'utf8') : '';
    return text.includes(' stdout F hello\n') && text.includes(' stderr F oops\n');
  }, "app's two lines in its log");
  await rt.call('StopPodSandbox', { podSandboxId: ids.notReady }, { timeoutMs: 30000 });
  meteredCgroup = `/syncpod-parity-${lab.id}`;
  const m = {
    ...sandboxConfig('metered', 'uid-metered-1', { app: 'metered' }),
    linux: { cgroupParent: meteredCgroup },
  };
  ids.metered = (await rt.call('RunPodSandbox', { config: m }, { timeoutMs: 60000 })).podSandboxId;
  await runContainer(ids.metered, m, 'idle', ['sh', '-c', 'sleep 3600']);
  lab.importImages(buildImages(path.dirname(emptyConfig), USER_IMAGES));
  if (USERNS) {
    const u = sandboxConfig('userns', 'uid-userns-1', { app: 'userns' });
    const map = [{ hostId: 65536, containerId: 0, length: 65536 }];
    const config = {
      ...u,
      linux: {
        securityContext: { namespaceOptions: { usernsOptions: { mode: 'POD' as const, uids: map, gids: map } } },
      },
    };
    ids.userns = (await rt.call('RunPodSandbox', { config }, { timeoutMs: 60000 })).podSandboxId;
  }
});

after(async () => {
  if (ids.metered) {
    await rt.call('StopPodSandbox', { podSandboxId: ids.metered }, { timeoutMs: 60000 });
    await rt.call('RemovePodSandbox', { podSandboxId: ids.metered }, { timeoutMs: 60000 });
  }
  rt?.close();
  await lab?.stop();
  // The cgroup parent runc made for the metered pod (the lab removes kubelet-shaped ones only).
  for (const controller of fs.existsSync('/sys/fs/cgroup/cpu') ? fs.readdirSync('/sys/fs/cgroup') : ['.']) {
    try {
      if (meteredCgroup) fs.rmdirSync(path.join('/sys/fs/cgroup', controller, meteredCgroup));
    } catch {
      /* not there, or a controller without the directory */
    }
  }
});

/** Live counters and sample times differ between two samples: every number is read as 0. */
const liveNumbers = {
  why: 'stats are samples of live counters (CPU, memory, timestamps) taken at two moments',
  normalize: (out: string) => out.replace(/\d+(\.\d+)?/g, '0'),
};

/**
 * ImageFsInfo's timestamp is the runtime's own clock where it measured the filesystems: containerd 1.6
 * measures again for each call, so two calls a few milliseconds apart get two timestamps. Only that
 * number is brought together; every other byte must agree.
 */
const fsInfoTime = {
  why: "ImageFsInfo's timestamp is the runtime's clock at each call",
  normalize: (out: string) => out.replace(/("timestamp": "|timestamp: "|TimeStamp\[\d+\]: )\d+/g, '$1<timestamp>'),
};

/**
 * The stats tables: numbers are samples (as liveNumbers), and crictl clears the screen before its
 * table even when stdout is not a terminal; syncpod clears it only when redrawing for -w.
 */
const statsTable = {
  why: 'stats are samples of live counters (whose widths set the columns); crictl writes a clear-screen sequence before a single table',
  normalize: (out: string) => liveNumbers.normalize(out.replace('\u001b[2J\u001b[H', '')).replace(/ +/g, ' '),
};

/** A JSON value with every object's keys sorted (to compare data whose key order the runtime varies). */
function sortedJSON(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedJSON);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortedJSON((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/**
 * CRI-O writes the annotations in its verbose info in a new order at each call (two crictl calls differ
 * too), and the table's `Info:` line prints that JSON as the runtime sent it: on CRI-O the line is
 * compared as data. Elsewhere every byte.
 */
const crioInfoOrder =
  labRuntime().kind === 'crio'
    ? {
        why: "CRI-O's verbose info orders its annotations differently at each call",
        normalize: (out: string) =>
          out.replace(
            /^Info: map\[info:(.*)\]$/m,
            (_, json: string) => `Info: ${JSON.stringify(sortedJSON(JSON.parse(json)))}`,
          ),
      }
    : undefined;

/** CRI-O measures pod stats at each call: their timestamps differ (containerd answers from its last sample). */
const crioStatsTime =
  labRuntime().kind === 'crio'
    ? {
        why: 'CRI-O samples pod stats at each call',
        normalize: (out: string) => out.replace(/("timestamp": "|timestamp: ")\d+"/g, '$1<t>"'),
      }
    : undefined;

/**
 * containerd 2.x builds ListMetricDescriptors from a Go map and ListPodSandboxMetrics with one
 * goroutine per pod: the order of descriptors, pods, containers and metrics changes from call to
 * call (two crictl calls differ too), and the samples are live. Compared: the data with every list
 * sorted and every run of digits read as 0, and the output's lines (digit runs as 0) sorted, so each
 * line's bytes (indentation, keys, quoting) must still agree. A run, not each digit: a live counter
 * gains a digit between two samples (a pod's received bytes went from 3 digits to 4 between two
 * frames of crictl's own metricsp -w on a loaded machine).
 */
function runtimeOrder(format: 'json' | 'yaml') {
  const canon = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(/\d+/g, '0');
    if (typeof v === 'number') return 0;
    if (Array.isArray(v)) return v.map(canon).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    if (v && typeof v === 'object')
      return sortedJSON(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, canon(x)])));
    return v;
  };
  return {
    why: "the runtime's order of metrics and pods changes per call; metric samples are live",
    normalize: (out: string) => {
      let data: unknown;
      try {
        data = format === 'json' ? JSON.parse(out) : parseYaml(out);
      } catch {
        return out;
      }
      const lines = out.replace(/\d+/g, '0').split('\n').sort().join('\n');
      return `${JSON.stringify(canon(data))}\n${lines}`;
    },
  };
}

/** -o json and -o yaml, before the arguments (crictl's flag parser stops at the first argument). */
const formats = (cmd: string, ...rest: string[]): Case[] =>
  ['json', 'yaml'].map((o) => ({ args: [cmd, '-o', o, ...rest] }));

describe(`look commands on ${labRuntime().kind}: the same bytes as crictl v1.37.0`, () => {
  const cases: Case[] = [
    { args: ['version'] },
    // pods
    { args: ['pods'] },
    ...formats('pods'),
    { args: ['pods', '-q'] },
    { args: ['pods', '-v'] },
    { args: ['pods', '--no-trunc'] },
    { args: ['pods', '--latest'] },
    { args: ['pods', '--last', '1'] },
    { args: ['pods', '--state', 'ready'] },
    { args: ['pods', '--state', 'notready', '-q'] },
    { args: ['pods', '--name', 'w.b'] },
    { args: ['pods', '--namespace', '^team-a$', '-o', 'json'] },
    { args: ['pods', '--label', 'app=web', '-q'] },
    { args: ['pods', '--id', '@notReady8'] },
    // inspectp
    ...formats('inspectp', '@ready'),
    { args: ['inspectp', '@notReady'] },
    { args: ['inspectp', '-q', '@ready'] },
    { args: ['inspectp', '-o', 'table', '@ready'], differs: crioInfoOrder },
    { args: ['inspectp', '-o', 'go-template', '--template', '{{.status.metadata.name}} {{.status.state}}', '@ready'] },
    { args: ['inspectp', '-q', '@ready', '@notReady'] },
    { args: ['inspectp', '-q', '--name', 'db'] },
    { args: ['inspectp', '-q', '--state', 'ready', '-o', 'yaml'] },
    { args: ['inspectp', '-q', '--latest'] },
    { args: ['inspectp', '-q', '--last', '2'] },
    // ps
    { args: ['ps'] },
    { args: ['ps', '-a'] },
    { args: ['ps', '--all', '-o', 'json'] },
    { args: ['ps', '-a', '-o', 'yaml'] },
    { args: ['ps', '-a', '-q'] },
    { args: ['ps', '-a', '-v'] },
    { args: ['ps', '-a', '--no-trunc'] },
    { args: ['ps', '-a', '--latest'] },
    { args: ['ps', '-a', '--last', '2'] },
    { args: ['ps', '-a', '--state', 'exited'] },
    { args: ['ps', '-a', '--name', '^app$'] },
    { args: ['ps', '-a', '--pod', '@notReady8'] },
    { args: ['ps', '-a', '--label', 'io.kubernetes.container.name=once', '-q'] },
    { args: ['ps', '-a', '--image', BUSYBOX_IMAGE, '-q'] },
    { args: ['ps', '-a', '--id', '@exited8'] },
    // inspect
    ...formats('inspect', '@running'),
    { args: ['inspect', '@exited'] },
    { args: ['inspect', '-q', '@running', '@exited'] },
    { args: ['inspect', '-o', 'table', '@exited'], differs: crioInfoOrder },
    {
      args: ['inspect', '-o', 'go-template', '--template', '{{.status.metadata.name}} {{.status.exitCode}}', '@exited'],
    },
    { args: ['inspect', '-q', '-a', '--name', 'once'] },
    { args: ['inspect', '-q', '--latest', '-a'] },
    // images
    { args: ['images'] },
    ...formats('images'),
    { args: ['images', '-q'] },
    { args: ['images', '-v'] },
    { args: ['images', '--digests'] },
    { args: ['images', '--no-trunc'] },
    { args: ['images', '--pinned'] },
    { args: ['images', BUSYBOX_IMAGE] },
    { args: ['images', '--filter', 'reference=*busybox*'] },
    // inspecti
    ...formats('inspecti', BUSYBOX_IMAGE),
    { args: ['inspecti', '-o', 'table', BUSYBOX_IMAGE] },
    { args: ['inspecti', '-o', 'go-template', '--template', '{{.status.repoTags}}', BUSYBOX_IMAGE] },
    // runtime status and configuration
    { args: ['info'] },
    { args: ['info', '-o', 'go-template', '--template', '{{range .status.conditions}}{{.type}}={{.status}} {{end}}'] },
    { args: ['info', '-o', 'yaml'] },
    { args: ['runtime-config'] },
    { args: ['imagefsinfo'], differs: fsInfoTime },
    { args: ['imagefsinfo', '-o', 'yaml'], differs: fsInfoTime },
    { args: ['imagefsinfo', '-o', 'table'], differs: fsInfoTime },
    {
      args: [
        'imagefsinfo',
        '-o',
        'go-template',
        '--template',
        '{{range .status.imageFilesystems}}{{.fsId.mountpoint}}{{end}}',
      ],
    },
    // stats: the same containers, keys and layout; the numbers are two samples of live counters
    { args: ['stats', '-a', '-o', 'json'], differs: liveNumbers },
    { args: ['stats', '-a', '-o', 'yaml'], differs: liveNumbers },
    { args: ['stats', '-a', '--id', '@running8', '-o', 'json'], differs: liveNumbers },
    { args: ['statsp', '-o', 'json'], differs: crioStatsTime },
    // logs
    { args: ['logs', '@running'] },
    { args: ['logs', '--tail', '1', '@running'] },
    { args: ['logs', '@stopped'] },
    { args: ['logs', '--tail', '2', '@stopped'] },
    // metrics through CRI (containerd 2.x; containerd 1.6 does not implement them: both fail)
    { args: ['metricdescs'], differs: runtimeOrder('json') },
    { args: ['metricdescs', '-o', 'json'], differs: runtimeOrder('json') },
    { args: ['metricdescs', '-o', 'yaml'], differs: runtimeOrder('yaml') },
    { args: ['metricsp'], differs: runtimeOrder('json') },
    { args: ['metricsp', '-o', 'yaml'], differs: runtimeOrder('yaml') },
    // images with a User: uid (protobuf-go's text of the wrapper in -v), 0 included, and a username
    { args: ['images', '-v', 'localhost/syncpod/user'] },
    ...formats('inspecti', 'localhost/syncpod/user:1000'),
    { args: ['inspecti', '-o', 'table', 'localhost/syncpod/user:root'] },
    // the rest of each look command's flags (crictl 1.37's --help, command by command)
    { args: ['pods', '-o', 'table'] },
    { args: ['pods', '--label', 'app=web', '--label', 'tier=front'] },
    { args: ['pods', '--state', 'notready', '-o', 'yaml'] },
    { args: ['pods', '--name', '^nomatch$'] },
    { args: ['pods', '--namespace', 'team', '--no-trunc', '-v'] },
    { args: ['ps', '-a', '--namespace', 'team-a', '-o', 'json'] },
    { args: ['ps', '-a', '-r'] },
    { args: ['ps', '-a', '-o', 'table'] },
    { args: ['ps', '-s', 'running', '-q'] },
    { args: ['ps', '-a', '--pod', '@ready8', '--state', 'exited', '-o', 'yaml'] },
    { args: ['ps', '-a', '-v', '--no-trunc'] },
    { args: ['ps', '-a', '--last', '0', '-q'] },
    { args: ['ps', '-a', '--name', 'nomatch'] },
    { args: ['inspect', '-o', 'yaml', '@exited'] },
    { args: ['inspect', '-o', 'table', '@running'], differs: crioInfoOrder },
    { args: ['inspect', '@stopped'] },
    { args: ['inspect', '-q', '-a', '--pod', '@notReady8'] },
    { args: ['inspect', '-q', '-a', '--state', 'exited'] },
    { args: ['inspect', '-q', '-a', '--label', 'io.kubernetes.container.name=app'] },
    { args: ['inspect', '-q', '-a', '--image', BUSYBOX_IMAGE, '-o', 'yaml'] },
    { args: ['inspect', '-q', '-a', '--namespace', 'team-a', '--last', '2'] },
    { args: ['inspectp', '-o', 'table', '@notReady'], differs: crioInfoOrder },
    { args: ['inspectp', '-q', '--label', 'app=db'] },
    { args: ['inspectp', '-q', '--namespace', 'team-a', '-o', 'json'] },
    { args: ['inspecti', '-q', BUSYBOX_IMAGE] },
    { args: ['inspecti', '-q', '--name', BUSYBOX_IMAGE] },
    { args: ['inspecti', '-q', '--filter', 'dangling=false'] },
    // crictl's reference filter reads an image's first repo digest's name: <none> for images containerd
    // imported from archives, the repository for CRI-O's (copied in by skopeo)
    { args: ['inspecti', '-q', '--filter', 'reference=^(<none>|.*busybox.*)$'] },
    { args: ['images', '--filter', 'reference=none', '--filter', 'dangling=false'] },
    { args: ['inspecti', '-o', 'yaml', 'localhost/syncpod/user:named'] },
    { args: ['images', '-o', 'table'] },
    { args: ['images', '--filter', 'dangling=false', '-q'] },
    { args: ['images', '--filter', 'since=localhost/syncpod/user:1000'] },
    { args: ['images', '--filter', 'before=localhost/syncpod/user:named', '-q'] },
    { args: ['images', '--digests', '--no-trunc'] },
    { args: ['images', '-v', '--pinned', BUSYBOX_IMAGE] },
    { args: ['info', '-q'] },
    { args: ['info', '-q', '-o', 'yaml'] },
    { args: ['imagefsinfo', '-o', 'json'], differs: fsInfoTime },
    { args: ['stats', '-a'], differs: statsTable },
    { args: ['stats'], differs: statsTable },
    { args: ['stats', '-a', '-o', 'table', '-s', '1'], differs: statsTable },
    { args: ['stats', '-a', '--pod', '@ready8', '-o', 'json'], differs: liveNumbers },
    { args: ['stats', '--label', 'io.kubernetes.container.name=app', '-o', 'json'], differs: liveNumbers },
    { args: ['stats', '-a', '-o', 'yaml', '@running8'], differs: liveNumbers },
    { args: ['statsp'], differs: statsTable },
    { args: ['statsp', '-o', 'yaml'], differs: crioStatsTime },
    { args: ['statsp', '--id', '@ready8', '-o', 'json'], differs: crioStatsTime },
    { args: ['statsp', '--label', 'app=web', '-o', 'json'], differs: crioStatsTime },
    { args: ['statsp', '-o', 'json', '@ready8'], differs: crioStatsTime },
    // a pod with a cgroup parent: the runtime's pod stats on containerd 1.6 too (the others fail there, for both)
    { args: ['statsp', '--id', '@metered'], differs: statsTable },
    { args: ['statsp', '-o', 'json', '--id', '@metered'], differs: liveNumbers },
    { args: ['statsp', '-o', 'yaml', '--label', 'app=metered'], differs: liveNumbers },
    { args: ['stats', '-p', '@metered', '-o', 'json'], differs: liveNumbers },
    { args: ['logs', '--timestamps', '@running'] },
    { args: ['logs', '-t', '--tail', '1', '@stopped'] },
    { args: ['logs', '--since', '2000-01-01T00:00:00Z', '@stopped'] },
    { args: ['logs', '--since', '1h', '@running'] },
    { args: ['logs', '--since', '2099-01-01T00:00:00Z', '@stopped'] },
    { args: ['logs', '--stream', 'stderr', '@running'] },
    { args: ['logs', '--stream', 'stdout', '@running'] },
    { args: ['logs', '--limit-bytes', '8', '@stopped'] },
    { args: ['logs', '--tail', '0', '@stopped'] },
    { args: ['logs', '@exited'] },
    { args: ['logs', '-f', '@exited'] },
    { args: ['logs', '-f', '--tail', '1', '@exited'] },
    { args: ['logs', '--previous', '@exited'] },
    { args: ['logs', '--previous', '@retry'] },
    { args: ['logs', '-p', '--tail', '1', '-t', '@retry'] },
    { args: ['logs', '-p', '--stream', 'stderr', '@retry'] },
    { args: ['logs', '@retry'] },
    { args: ['logs', '--previous', '@gone'] },
    { args: ['logs', '--tail', '1', '--stream', 'stdout', '@running'] },
    { args: ['logs', '--stream', 'both', '@running'] },
    { args: ['logs', '--since', 'yesterday', '@running'] },
    ...(USERNS
      ? [
          // a user-namespaced sandbox: usernsOptions in its status
          ...formats('inspectp', '@userns'),
          { args: ['inspectp', '-o', 'table', '@userns'] },
          { args: ['pods', '-v', '--id', '@userns'] },
        ]
      : []),
  ];
  for (const c of cases) {
    test(c.args.join(' '), async () => compare(c));
  }
  test('nothing found by the filters of inspect, inspectp, inspecti: crictl prints its help and exits 0; syncpod says so in one line, exit 1', async () => {
    for (const args of [
      ['inspect', '-a', '--name', '^nomatch$'],
      ['inspectp', '--name', '^nomatch$'],
      ['inspecti', '--filter', 'reference=^nomatch$'],
    ]) {
      const [theirs, ours] = await Promise.all([runCrictl(args), syncpod(args, { env: lab.env })]);
      assert.equal(theirs.code, 0, `crictl ${args.join(' ')}: ${theirs.stderr}`);
      assert.match(theirs.stderr, /No IDs provided or nothing found per filter/);
      assert.match(theirs.stdout, new RegExp(`crictl ${args[0]} \\[command options\\]`));
      assert.equal(ours.code, 1, `syncpod ${args.join(' ')}`);
      assert.equal(ours.stdout, '');
      assert.equal(ours.stderr, 'syncpod: No IDs provided or nothing found per filter\n');
    }
  });
  test("config --get and --list read the same file as crictl's (both given with -c)", async () => {
    const file = path.join(path.dirname(emptyConfig), 'crictl-set.yaml');
    fs.writeFileSync(
      file,
      'runtime-endpoint: unix:///run/containerd/containerd.sock\nimage-endpoint: unix:///run/image.sock\ntimeout: 7\ndebug: false\npull-image-on-create: true\n',
    );
    const before = fs.readFileSync(file, 'utf8');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/root' };
    const keys = [
      'runtime-endpoint',
      'image-endpoint',
      'timeout',
      'debug',
      'pull-image-on-create',
      'disable-pull-on-run',
      'max-retries',
    ];
    for (const args of [['--list'], ...keys.map((k) => ['--get', k]), ['--get', 'no-such-key']]) {
      const theirs = spawnSync(crictl, ['--config', file, 'config', ...args], { env, encoding: 'utf8' });
      const ours = await syncpod(['-c', file, 'config', ...args], { env: {} });
      assert.equal(
        ours.code === 0 ? 0 : 1,
        theirs.status === 0 ? 0 : 1,
        `config ${args.join(' ')}: ${ours.stderr} / ${theirs.stderr}`,
      );
      // crictl clears the screen before the --list table (on a pipe too), as before stats tables
      assert.equal(ours.stdout, theirs.stdout.replace('\u001b[2J\u001b[H', ''), `config ${args.join(' ')}`);
    }
    assert.equal(fs.readFileSync(file, 'utf8'), before, 'reading changed the file');
  });
  if (USERNS)
    test('the user-namespaced sandbox runs in its own user namespace (uid 0 inside is 65536 outside)', async () => {
      const r = await syncpod(['inspectp', '-o', 'json', ids.userns], { env: lab.env });
      const pid = JSON.parse(r.stdout).info.pid;
      assert.match(fs.readFileSync(`/proc/${pid}/uid_map`, 'utf8'), /^\s*0\s+65536\s+65536\s*$/);
    });
});

/**
 * `stats -w` and `statsp -w` redraw on crictl's 500 ms ticker until Ctrl-C. Both tools run at once
 * until each has drawn at least two frames, then get SIGINT: both end with 0 and nothing on stderr,
 * and every frame (a table after the clear-screen sequence, or one JSON or YAML document) is the same
 * as crictl's first but for the live numbers. The ticker's schedule itself is a unit test
 * (stats-watch.test.ts): frame times on a loaded machine are not compared.
 */
describe(`stats -w and statsp -w on ${labRuntime().kind}: crictl v1.37.0's frames`, () => {
  const CLEAR = '\u001b[2J\u001b[H';
  /** The frames of a watch: table frames each start with CLEAR; documents start at column 0. */
  function frames(out: string, table: boolean): string[] {
    if (table) {
      assert.ok(
        out.startsWith(CLEAR),
        `a table frame starts with the clear-screen sequence: ${JSON.stringify(out.slice(0, 40))}`,
      );
      return out.split(CLEAR).slice(1);
    }
    return out.split(/^(?=\{$|stats:|podMetrics:)/m).filter((f) => f !== '');
  }
  async function watchUntil(argv: string[], env: Record<string, string>, done: (out: string) => boolean) {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const got = { stdout: '', stderr: '', code: null as number | null };
    child.stdout.on('data', (d) => (got.stdout += d));
    child.stderr.on('data', (d) => (got.stderr += d));
    const closed = new Promise<void>((r) => child.on('close', (code) => ((got.code = code), r())));
    try {
      for (let i = 0; i < 600 && !done(got.stdout + got.stderr) && got.code === null; i++)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      child.kill('SIGINT');
      await closed;
    }
    return got;
  }
  const cases = [
    { args: ['stats', '-a', '-w'], table: true },
    { args: ['stats', '-a', '-w', '-o', 'json'], table: false },
    { args: ['statsp', '-w', '--id', '@metered'], table: true },
    { args: ['statsp', '-w', '-o', 'yaml', '--id', '@metered'], table: false },
    // containerd 1.6 has no pod metrics (the metricsp case above: both fail there)
    ...(labRuntime().kind === 'containerd' ? [] : [{ args: ['metricsp', '-w'], table: false }]),
  ];
  test('logs -f of a running container: the log so far, then both wait; Ctrl-C ends both with 0', async () => {
    for (const args of [
      ['logs', '-f', '@running'],
      ['logs', '-f', '--tail', '1', '-t', '@running'],
    ]) {
      const full = withIds(args);
      // The container wrote "hello" to stdout and "oops" to stderr: each tool keeps the two streams apart.
      // containerd copies the two pipes apart, so either line may be the log's last: --tail 1 shows that one.
      const has = (out: string) =>
        args.includes('--tail') ? /(hello|oops)\n/.test(out) : out.includes('oops') && out.includes('hello');
      const [theirs, ours] = await Promise.all([
        watchUntil(
          [crictl, '--config', emptyConfig, '-r', lab.endpoint, ...full],
          { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/root', ...lab.env, CRI_CONFIG_FILE: emptyConfig },
          has,
        ),
        watchUntil(
          [process.execPath, path.join(__dirname, '..', '..', 'bin', 'syncpod'), ...full],
          { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/root', CRI_CONFIG_FILE: '', ...lab.env },
          has,
        ),
      ]);
      assert.ok(has(theirs.stdout + theirs.stderr), `crictl ${args.join(' ')}: ${theirs.stdout} ${theirs.stderr}`);
      assert.equal(theirs.code, 0, `crictl ${args.join(' ')} after SIGINT: ${theirs.stderr}`);
      assert.equal(ours.code, 0, `syncpod ${args.join(' ')} after SIGINT: ${ours.stderr}`);
      assert.equal(ours.stdout, theirs.stdout, `${args.join(' ')}: stdout`);
      assert.equal(ours.stderr, theirs.stderr, `${args.join(' ')}: stderr`);
    }
  });
  for (const c of cases) {
    test(c.args.join(' '), async () => {
      // Two whole frames: the third has begun (a table frame is written whole, documents end at the next).
      const enough = (out: string) => {
        try {
          return frames(out, c.table).length >= 3;
        } catch {
          return false;
        }
      };
      const [theirs, ours] = await Promise.all([
        watchUntil(
          [crictl, '--config', emptyConfig, '-r', lab.endpoint, ...withIds(c.args)],
          { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/root', ...lab.env, CRI_CONFIG_FILE: emptyConfig },
          enough,
        ),
        watchUntil(
          [process.execPath, path.join(__dirname, '..', '..', 'bin', 'syncpod'), ...withIds(c.args)],
          { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/root', CRI_CONFIG_FILE: '', ...lab.env },
          enough,
        ),
      ]);
      for (const [who, r] of [
        ['crictl', theirs],
        ['syncpod', ours],
      ] as const) {
        assert.equal(r.code, 0, `${who} after SIGINT: ${r.code} ${r.stderr}`);
        assert.equal(r.stderr, '', `${who}'s stderr`);
      }
      const norm = (f: string) =>
        (c.table ? statsTable : c.args[0] === 'metricsp' ? runtimeOrder('json') : liveNumbers).normalize(f);
      const want = frames(theirs.stdout, c.table).map(norm);
      const got = frames(ours.stdout, c.table).map(norm);
      assert.ok(want.length >= 2 && got.length >= 2, `frames: crictl ${want.length}, syncpod ${got.length}`);
      for (const f of want) assert.equal(f, want[0], "crictl's frames differ from each other");
      for (const [i, f] of got.entries())
        if (f !== want[0]) assert.fail(`syncpod's frame ${i + 1} differs from crictl's:\n${lineDiff(f, want[0]!)}`);
    });
  }
});
/**
 * `events` streams the runtime's container events until interrupted. The two tools cannot listen at
 * once (CRI-O hands each event to one subscriber), so crictl and syncpod each watch a container life
 * of their own (created, started, stopped, removed) in turn, and the two streams must be the same
 * bytes but for container ids and times. Where the runtime has no event stream (containerd 1.6),
 * both fail.
 *
 * Nothing here waits for a subscription by time. A watcher is known to listen once it shows an event
 * of a probe container made after it started (made again until one shows: containerd 2.x gives an
 * event to a watcher that was interrupted before it, which takes it and goes, and queues events for
 * a later one while nobody listens). Only the events of the watched life's own container are compared,
 * so queued events of earlier containers and the probes' do not count.
 */
describe(`events on ${labRuntime().kind}: the same stream as crictl v1.37.0`, () => {
  const env = () => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/root',
    ...lab.env,
    CRI_CONFIG_FILE: emptyConfig,
  });
  /** -o and, for go-template, a template that names the event, its container, time and pod. */
  const outputs: Record<string, string[]> = {
    json: ['-o', 'json'],
    yaml: ['-o', 'yaml'],
    'go-template': [
      '-o',
      'go-template',
      '--template',
      '{{.containerEventType}} {{.containerId}} {{.createdAt}} pod={{.podSandboxStatus.metadata.name}} {{range .containersStatuses}}[{{.metadata.name}} {{.state}}]{{end}}',
    ],
  };
  const crictlEvents = (output: string) => [
    crictl,
    '--config',
    emptyConfig,
    '-r',
    lab.endpoint,
    'events',
    ...(outputs[output] ?? []),
  ];
  const ourEvents = (output: string) => [
    process.execPath,
    path.join(__dirname, '..', '..', 'bin', 'syncpod'),
    'events',
    ...(outputs[output] ?? []),
  ];

  /** The events of one output, each whole: an indented JSON object, a YAML document and its empty line, a line. */
  function eventsOf(output: string, out: string): string[] {
    if (output === 'json') return out.split(/^(?=\{$)/m).filter((e) => e !== '');
    if (output === 'yaml') return out.split(/(?<=\n\n)/).filter((e) => e !== '');
    return out.split(/(?<=\n)/).filter((e) => e !== '');
  }
  /** The events about container `id` (the event's own containerId, not a status inside it). */
  const about = (output: string, out: string, id: string) =>
    eventsOf(output, out).filter((e) =>
      output === 'json'
        ? e.includes(`\n  "containerId": "${id}",\n`)
        : output === 'yaml'
          ? new RegExp(`^containerId: "?${id}"?$`, 'm').test(e)
          : e.split(' ')[1] === id,
    );
  const deletedIn = (events: string[]) => events.some((e) => e.includes('CONTAINER_DELETED_EVENT'));

  /** A watcher process: its output so far and its end. */
  function start(argv: string[]) {
    const child = spawn(argv[0]!, argv.slice(1), { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    const got = { stdout: '', stderr: '', code: null as number | null, signal: null as string | null, done: false };
    child.stdout.on('data', (d) => (got.stdout += d));
    child.stderr.on('data', (d) => (got.stderr += d));
    const closed = new Promise<void>((r) =>
      child.on('close', (code, signal) => {
        Object.assign(got, { code, signal, done: true });
        r();
      }),
    );
    return { child, got, closed };
  }

  // A sandbox of its own: the events carry the pod's container statuses, whose order is the runtime's.
  const sb = () => sandboxConfig('events', 'uid-events-1', { app: 'events' });
  let sandboxId = '';
  /** A container made and removed at once: two events, for a watcher to show that it listens. */
  const probe = async (name: string): Promise<string> => {
    const { containerId } = await rt.call(
      'CreateContainer',
      {
        podSandboxId: sandboxId,
        config: {
          metadata: { name, attempt: 0 },
          image: { image: BUSYBOX_IMAGE, userSpecifiedImage: BUSYBOX_IMAGE },
          command: ['true'],
        },
        sandboxConfig: sb(),
      },
      { timeoutMs: 30000 },
    );
    await rt.call('RemoveContainer', { containerId }, { timeoutMs: 30000 });
    return containerId;
  };
  /** Created, started, stopped and removed; its id. */
  const life = async (name: string): Promise<string> => {
    const id = await runContainer(sandboxId, sb(), name, ['sh', '-c', 'sleep 3600']);
    await rt.call('StopContainer', { containerId: id, timeout: '1' }, { timeoutMs: 30000 });
    await rt.call('RemoveContainer', { containerId: id }, { timeoutMs: 30000 });
    return id;
  };

  /**
   * `argv` watches one life of a container named `name`: probes until it shows one (and that probe's
   * removal), then the life, until its removal shows; then Ctrl-C. The life's events, in order.
   */
  async function watchLife(argv: string[], output: string, name: string): Promise<string[]> {
    const w = start(argv);
    try {
      let listening = '';
      for (let n = 0; !listening; n++) {
        assert.ok(n < 30, `no event of 30 probes reached ${argv.join(' ')}: ${w.got.stderr}`);
        const id = await probe(`probe-${n}`);
        // A probe not seen within 2 s is followed by another (the watcher may have come after it).
        const seen = () => about(output, w.got.stdout, id).length > 0;
        await waitFor(async () => seen() || w.got.done, 'a probe event', 2000).catch(() => undefined);
        assert.ok(!w.got.done, `${argv.join(' ')} ended: ${w.got.code} ${w.got.stderr}`);
        if (seen()) listening = id;
      }
      await waitFor(async () => deletedIn(about(output, w.got.stdout, listening)), "the probe's removal");
      const id = await life(name);
      await waitFor(async () => deletedIn(about(output, w.got.stdout, id)), `the removal of ${name}`);
      return about(output, w.got.stdout, id);
    } finally {
      w.child.kill('SIGINT');
      await w.closed;
    }
  }

  const same = (out: string) => out.replace(/\b[0-9a-f]{64}\b/g, '<id>').replace(/\b\d{19}\b/g, '<time>');

  for (const output of Object.keys(outputs)) {
    test(`events -o ${output}`, async () => {
      if (labRuntime().kind === 'containerd') {
        // No event stream: both end by themselves (waited for, however slow), with an error.
        const [theirs, ours] = [start(crictlEvents(output)), start(ourEvents(output))];
        try {
          await waitFor(async () => theirs.got.done && ours.got.done, 'both to end');
        } finally {
          for (const w of [theirs, ours]) if (!w.got.done) w.child.kill('SIGKILL');
        }
        assert.ok(theirs.got.code !== null && theirs.got.code !== 0, `crictl: ${theirs.got.code} ${theirs.got.stderr}`);
        assert.equal(ours.got.code, 1, `syncpod: ${ours.got.stdout} ${ours.got.stderr}`);
        assert.match(ours.got.stderr, /GetContainerEvents: not implemented/);
        return;
      }
      sandboxId ||= (await rt.call('RunPodSandbox', { config: sb() }, { timeoutMs: 60000 })).podSandboxId;
      const theirs = await watchLife(crictlEvents(output), output, `ev-${output}`);
      const ours = await watchLife(ourEvents(output), output, `ev-${output}`);
      const text = ours.join('');
      for (const t of [
        'CONTAINER_CREATED_EVENT',
        'CONTAINER_STARTED_EVENT',
        'CONTAINER_STOPPED_EVENT',
        'CONTAINER_DELETED_EVENT',
      ])
        assert.ok(text.includes(t), `${t} in syncpod's stream:\n${text.slice(0, 2000)}`);
      const a = same(text);
      const b = same(theirs.join(''));
      if (a !== b) assert.fail(`syncpod events -o ${output} differs from crictl 1.37:\n${lineDiff(a, b)}`);
    });
  }
});
