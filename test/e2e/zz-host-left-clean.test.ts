// Runs last (npm test runs the e2e files in name order, one at a time): nothing the suite made on the
// host stays there. Every pod uid written into an e2e test is looked for under the host's kubelet
// pod directory and pod log directory; every lab the suite started (each lab's cleanup notes it in
// .lab/e2e-ledger.jsonl) has left no process, network namespace, mount, pod cgroup or directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LAB_LEDGER, podCgroupsOf, podUidsOf, type LabLedgerEntry } from '../harness/lab';

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/** The pod uids the e2e files use (the ones a sync against the host's default paths could leave). */
function testUids(): string[] {
  const uids = new Set<string>();
  for (const f of fs.readdirSync(__dirname)) {
    if (!f.endsWith('.ts')) continue;
    for (const m of fs.readFileSync(path.join(__dirname, f), 'utf8').matchAll(UUID)) uids.add(m[0]);
  }
  return [...uids].sort();
}

test('nothing of the e2e suite is left in /var/lib/kubelet/pods or /var/log/pods', () => {
  const uids = testUids();
  assert.ok(
    uids.includes('7e3c1a52-0000-4000-8000-00000000a136'),
    'the node-profile pod uid is among those looked for',
  );
  const left: string[] = [];
  for (const root of ['/var/lib/kubelet/pods', '/var/log/pods']) {
    const entries = fs.existsSync(root) ? fs.readdirSync(root) : [];
    for (const e of entries) if (uids.some((u) => e === u || e.endsWith(`_${u}`))) left.push(path.join(root, e));
  }
  assert.deepEqual(left, [], `left on the host: ${left.join(', ')}`);
});

/** The lab directories in the temp dir, not in `ours`, whose owner process lives (other e2e runs). */
function liveLabsOfOthers(ours: Set<string>): string[] {
  const out: string[] = [];
  for (const name of fs.readdirSync(os.tmpdir())) {
    const dir = path.join(os.tmpdir(), name);
    if (!name.startsWith('syncpod-lab-') || ours.has(dir)) continue;
    try {
      const owner = Number(fs.readFileSync(path.join(dir, 'owner.pid'), 'utf8'));
      if (owner > 0 && owner !== process.pid && process.kill(owner, 0)) out.push(dir);
    } catch {
      /* no owner, or it is gone: not a live lab (a stale one is reported below) */
    }
  }
  return out;
}

/** Processes whose command line contains `needle` (not this one). */
function processesNaming(needle: string): string[] {
  const out: string[] = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (cmd.includes(needle)) out.push(`${pid} ${cmd}`);
    } catch {
      /* gone */
    }
  }
  return out;
}

test('every lab of the suite is gone: no containerd, shim or bridge, netns, mount, pod cgroup, pod dir or lab directory', () => {
  const entries: LabLedgerEntry[] = fs.existsSync(LAB_LEDGER)
    ? fs
        .readFileSync(LAB_LEDGER, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as LabLedgerEntry)
    : [];
  const netns = new Set(
    spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((l) => l.split(' ')[0]!)
      .filter(Boolean),
  );
  const mounts = fs
    .readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[1] ?? '');
  const left: string[] = [];
  for (const e of entries) {
    if (fs.existsSync(e.dir)) left.push(`lab directory ${e.dir}`);
    for (const p of [...processesNaming(`${e.dir}/config.toml`), ...processesNaming(`${e.dir}/containerd.sock`)])
      left.push(`process of ${e.dir}: ${p}`);
    for (const p of processesNaming(`${e.dir}/stream-bridge.sock`)) left.push(`stream bridge: ${p}`);
    for (const ns of [e.netns, ...e.podNetns]) if (ns && netns.has(ns)) left.push(`network namespace ${ns}`);
    for (const m of mounts) if (m === e.dir || m.startsWith(`${e.dir}/`)) left.push(`mount ${m}`);
    for (const uid of e.podUids) {
      if (fs.existsSync(path.join('/var/lib/kubelet/pods', uid))) left.push(`/var/lib/kubelet/pods/${uid}`);
      const logs = fs.existsSync('/var/log/pods') ? fs.readdirSync('/var/log/pods') : [];
      for (const d of logs) if (d.endsWith(`_${uid}`)) left.push(`/var/log/pods/${d}`);
    }
  }
  // One walk of the cgroup hierarchies for every lab's pods. Pod cgroups are the host's, named by pod
  // uid, and the test files' uids are fixed: another e2e run on this host (another checkout) may be
  // running a pod of the same uid right now. A uid that a live lab of another process has run is left
  // out here (that run's own last check looks for it); with no other run, as in CI, none is.
  const ours = new Set(entries.map((e) => e.dir));
  const othersRunning = new Set(liveLabsOfOthers(ours).flatMap((dir) => podUidsOf(dir)));
  const uids = entries.flatMap((e) => e.podUids).filter((u) => !othersRunning.has(u));
  for (const cg of podCgroupsOf(uids)) left.push(`pod cgroup ${cg}`);
  // A lab whose test process died is swept by the next startLab; after the last one none is stale.
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith('syncpod-lab-')) continue;
    let owner = 0;
    try {
      owner = Number(fs.readFileSync(path.join(os.tmpdir(), name, 'owner.pid'), 'utf8'));
    } catch {
      /* no owner */
    }
    let alive = false;
    try {
      alive = owner > 0 && process.kill(owner, 0);
    } catch {
      alive = false;
    }
    if (!alive) left.push(`stale lab ${path.join(os.tmpdir(), name)}`);
  }
  assert.deepEqual(left, [], `left on the host by ${entries.length} labs:\n${left.join('\n')}`);
  fs.rmSync(LAB_LEDGER, { force: true });
});
