// Node-wide on a real containerd: static pods planned as <name>-<node>, an orphan sandbox with
// kubelet's labels reported and (with --remove-orphans) removed, a sandbox without kubelet's labels
// never touched, the plan converged afterwards (detailed exit 0, NPD OK); bad input one line each;
// rmi --prune --node keeping the sandbox image and desired images.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  BUSYBOX_IMAGE,
  BUSYBOX_IMAGE_2,
  PAUSE_IMAGE,
  labRuntime,
  podCgroupsOf,
  startLab,
  type Lab,
} from '../harness/lab';
import { assertOneLineError, syncpod } from './helpers';
import { nodeFlags, podManifest } from './sync-helpers';

/**
 * Why prune keeps the sandbox image: containerd 1.6 names it in its Status info; containerd 2.x
 * does not (its image settings are not in Status) but pins it (pinned_images.sandbox); CRI-O does
 * both, and the pin is said first.
 */
const SANDBOX_KEEP =
  labRuntime().kind === 'containerd' ? /keep: the runtime's sandbox image$/ : /keep: pinned by the runtime$/;

let lab: Lab;
let dir: string;
let manifests: string;
/** The process the first test leaves in the orphan's pod cgroup (killed here if the test failed first). */
let straggler: ChildProcess | undefined;
const run = (args: string[], timeoutMs = 120000) => syncpod(args, { env: lab.env, timeoutMs });
const node = () => [...nodeFlags(lab), '--node', '--static-pod-path', manifests];
// Random per run: the orphan's pod cgroup (/kubepods/besteffort/pod<uid>) is in the host's shared
// cgroup tree, and a sync here destroys it: a fixed uid would be another run's pod cgroup too.
const ORPHAN_UID = `0a0a0a0a-1111-2222-3333-${randomBytes(6).toString('hex')}`;

const staticPod = (name: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: e2e-static\nspec:\n  terminationGracePeriodSeconds: 2\n  containers:\n  - name: main\n    image: ${BUSYBOX_IMAGE}\n    imagePullPolicy: IfNotPresent\n    command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 1; done"]\n`;

async function sandboxes(): Promise<any[]> {
  const r = await run(['pods', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).items;
}

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-node-e2e-'));
  manifests = path.join(dir, 'manifests');
  fs.mkdirSync(manifests);
  fs.writeFileSync(path.join(manifests, 'alpha.yaml'), staticPod('alpha'));
  fs.writeFileSync(path.join(manifests, 'beta.yaml'), staticPod('beta'));
  fs.writeFileSync(path.join(manifests, '.editor-swap'), 'not read');
});
after(async () => {
  straggler?.kill('SIGKILL');
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('node-wide', () => {
  test('static pods and an orphan: plan, sync --node --yes --remove-orphans, then no changes', async () => {
    // The orphan: a pod made with kubelet's labels (runp from a manifest), whose uid nothing desires.
    const orphanFile = path.join(dir, 'orphan.json');
    fs.writeFileSync(
      orphanFile,
      podManifest({ name: 'leftover', uid: ORPHAN_UID, containers: [{ name: 'x', image: BUSYBOX_IMAGE }] }),
    );
    const runp = await run(['runp', ...nodeFlags(lab), orphanFile]);
    assert.equal(runp.code, 0, runp.stderr);
    const orphanSandbox = runp.stdout.trim();
    const orphanLogs = path.join(lab.podLogsRoot, `e2e_leftover_${ORPHAN_UID}`);
    assert.ok(fs.statSync(orphanLogs).isDirectory(), 'runp made the pod log directory');
    // A sandbox without kubelet's labels (a crictl-style config): never reported, never touched.
    const bare = path.join(dir, 'bare.json');
    fs.writeFileSync(
      bare,
      JSON.stringify({
        metadata: { name: 'handmade', namespace: 'other', uid: 'handmade-uid', attempt: 0 },
        log_directory: path.join(dir, 'bare-logs'),
      }),
    );
    const bareRun = await run(['runp', bare]);
    assert.equal(bareRun.code, 0, bareRun.stderr);
    const bareSandbox = bareRun.stdout.trim();
    // CRI-O gives every sandbox kubelet's pod name, namespace and uid labels from its metadata when
    // they are missing: there it is a pod like any other (kubelet sees it so too), an orphan here.
    const crio = labRuntime().kind === 'crio';
    if (crio)
      assert.equal(
        (await sandboxes()).find((s) => s.id === bareSandbox)?.labels['io.kubernetes.pod.uid'],
        'handmade-uid',
      );
    const orphans = crio ? ['leftover', 'handmade'] : ['leftover'];

    const plan = await run(['plan', ...node(), '-o', 'json', '--detailed-exitcode']);
    assert.equal(plan.code, 2, plan.stderr);
    const p = JSON.parse(plan.stdout);
    assert.deepEqual(
      p.plans.map((x: any) => `${x.pod.namespace}/${x.pod.name}`),
      ['e2e-static/alpha-e2e-node', 'e2e-static/beta-e2e-node'],
    );
    for (const x of p.plans) {
      assert.equal(x.source.kind, 'static-pod');
      assert.ok(x.steps.some((s: any) => s.action === 'create-sandbox'));
    }
    assert.deepEqual(
      p.orphans.map((o: any) => o.name),
      orphans,
      JSON.stringify(p.orphans),
    );
    assert.equal(p.orphans[0].uid, ORPHAN_UID);
    assert.equal(p.orphans[0].name, 'leftover');
    assert.equal(p.orphans[0].sandboxes[0].id, orphanSandbox);
    assert.equal(p.orphans[0].kubelet, 'kill');
    // Its pod cgroup, which the runtime made as the sandbox's parent: kubelet's housekeeping destroys
    // it once the pod is gone, in every hierarchy, killing what is left in it.
    const orphanCgroups = podCgroupsOf([ORPHAN_UID]);
    assert.ok(orphanCgroups.length > 0, 'the runtime made the pod cgroup of the orphan');
    const cg = p.orphans[0].podCgroup;
    assert.equal(cg?.name, `/kubepods/besteffort/pod${ORPHAN_UID}`, JSON.stringify(p.orphans[0]));
    assert.equal(cg.qosClass, 'BestEffort');
    assert.deepEqual([...cg.paths].sort(), orphanCgroups);
    assert.match(p.orphans[0].reason, /its pod cgroup \/kubepods\/besteffort\/pod\S+ is destroyed/);
    // A process left in it (one of this test's own), as a container's that outlived its runtime would be.
    straggler = spawn('sleep', ['600'], { stdio: 'ignore' });
    const stragglerExit = new Promise<string | null>((resolve) => straggler!.once('exit', (_c, sig) => resolve(sig)));
    const into = orphanCgroups.find((d) => d.includes('/memory/')) ?? orphanCgroups[0]!;
    fs.writeFileSync(path.join(into, 'cgroup.procs'), String(straggler.pid));
    assert.match(
      p.summary.text,
      new RegExp(`^Node e2e-node: 2 pods: 2 with changes, 0 without; ${orphans.length} orphans?\\.$`),
    );

    const npd = await run(['plan', ...node(), '-o', 'npd']);
    assert.equal(npd.code, 1, npd.stderr);
    assert.match(
      npd.stdout,
      new RegExp(`^NonOK: 2/2 pods would change, ${orphans.length} orphan pods? \\(e2e-static/alpha-e2e-node\\)\\n$`),
    );

    const sync = await run(['sync', ...node(), '--yes', '--remove-orphans']);
    assert.equal(sync.code, 0, sync.stdout + sync.stderr);
    assert.match(
      sync.stdout,
      new RegExp(
        `Node e2e-node: 2 pods synced, 0 unchanged, ${orphans.length} of ${orphans.length} orphans removed\\.`,
      ),
    );

    const after = await sandboxes();
    const ready = after
      .filter((s) => s.state === 'SANDBOX_READY')
      .map((s) => s.metadata.name)
      .sort();
    assert.deepEqual(
      ready,
      crio ? ['alpha-e2e-node', 'beta-e2e-node'] : ['alpha-e2e-node', 'beta-e2e-node', 'handmade'],
    );
    assert.ok(!after.some((s) => s.id === orphanSandbox), 'the orphan sandbox is removed');
    assert.equal(
      after.some((s) => s.id === bareSandbox),
      !crio,
      crio ? 'CRI-O labelled it: removed as an orphan' : 'the unlabelled sandbox is left alone',
    );
    assert.ok(!fs.existsSync(orphanLogs), "the orphan's log directory went too, as kubelet's log GC removes it");
    assert.match(sync.stdout, new RegExp(`removed log directory ${orphanLogs.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.deepEqual(podCgroupsOf([ORPHAN_UID]), [], "the orphan's pod cgroup is gone in every hierarchy");
    assert.match(
      sync.stdout,
      new RegExp(`removed pod cgroup /kubepods/besteffort/pod${ORPHAN_UID} \\(killed \\d+ process(es)? left in it\\)`),
    );
    assert.equal(await stragglerExit, 'SIGKILL', 'the process left in the pod cgroup was killed');
    const static1 = after.find((s) => s.metadata.name === 'alpha-e2e-node');
    assert.equal(static1.annotations['kubernetes.io/config.source'], 'file');
    assert.equal(static1.annotations['kubernetes.io/config.hash'], static1.metadata.uid);
    const ps = await run(['ps', '-o', 'json', '--namespace', '^e2e-static$']);
    assert.deepEqual(
      JSON.parse(ps.stdout).containers.map((c: any) => c.state),
      ['CONTAINER_RUNNING', 'CONTAINER_RUNNING'],
    );

    const again = await run(['plan', ...node(), '--detailed-exitcode']);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /Node e2e-node: 2 pods: 0 with changes, 2 without; no orphans\./);
    const ok = await run(['plan', ...node(), '-o', 'npd']);
    assert.equal(ok.code, 0);
    assert.equal(ok.stdout, 'OK: 2 pods as kubelet would keep them, no orphans\n');
  });

  test('plan --node says every change a single-pod plan says (env, command, resources, preStop, with verdicts), and what changed in a replaced static pod file', async () => {
    const uid = '5e5e5e5e-0000-4000-8000-0000000000a1';
    const file = path.join(dir, 'words.yaml');
    const words = (mode: string, sleep: number, memory: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: words\n  namespace: e2e-words\n  uid: ${uid}\nspec:\n  terminationGracePeriodSeconds: 2\n  containers:\n  - name: app\n    image: ${BUSYBOX_IMAGE}\n    imagePullPolicy: IfNotPresent\n    command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep ${sleep}; done"]\n    env: [{name: MODE, value: ${mode}}]\n    resources: {limits: {cpu: 100m, memory: ${memory}}}\n${mode === 'red' ? '    lifecycle: {preStop: {exec: {command: ["true"]}}}\n' : ''}`;
    fs.writeFileSync(file, words('green', 1, '64Mi'));
    const synced = await run(['sync', ...nodeFlags(lab), '--yes', file]);
    assert.equal(synced.code, 0, synced.stdout + synced.stderr);
    fs.writeFileSync(file, words('red', 2, '96Mi'));
    try {
      const single = JSON.parse((await run(['plan', ...nodeFlags(lab), '-o', 'json', file])).stdout);
      const nodeRun = await run(['plan', ...node(), '-o', 'json', file]);
      assert.equal(nodeRun.code, 0, nodeRun.stderr);
      const inNode = JSON.parse(nodeRun.stdout).plans.find((x: any) => x.pod.name === 'words');
      // The same differences and verdicts as the single-pod plan, field by field.
      assert.deepEqual(inNode.differences, single.differences);
      assert.deepEqual(inNode.ignoredDifferences, single.ignoredDifferences);
      const fields = [...single.differences, ...single.ignoredDifferences].flatMap((d: any) =>
        d.differences.map((f: any) => f.field),
      );
      // CRI-O's verbose info holds the OCI spec it made, not the CRI config kubelet sent: the command
      // and env of a running container are not known there (src/state/recorded-config.ts), so only
      // what status and annotations say is compared.
      const known =
        labRuntime().kind === 'crio' ? ['resources', 'lifecycle'] : ['command', 'env', 'resources', 'lifecycle'];
      for (const f of known) assert.ok(fields.includes(f), `${f} in ${fields}`);
      if (labRuntime().kind === 'crio')
        for (const f of ['command', 'env']) assert.ok(!fields.includes(f), `${f} in ${fields}`);
      const table = await run(['plan', ...node(), file]);
      const flat = table.stdout.replace(/\n {4}/g, ' ');
      assert.match(flat, /^ {2}app: memory limit 64Mi → 96Mi: kubelet resizes it in place$/m);
      assert.match(
        flat,
        labRuntime().kind === 'crio'
          ? /^ {2}app: lifecycle\.preStop \(none\) → \{"exec":\{"command":\["true"\]\}\}: kubelet 1\.37 keeps the container running/m
          : /^ {2}app: command …e; do sleep 1; done"\] → …e; do sleep 2; done"\]; env MODE green → red; lifecycle\.preStop \(none\) → \{"exec":\{"command":\["true"\]\}\}: kubelet 1\.37 keeps the container running/m,
      );

      // A static pod file changed (its command) and another one given a probe: each one "replaced"
      // entry that says what changed, or that no field the runtime records did.
      fs.writeFileSync(path.join(manifests, 'alpha.yaml'), staticPod('alpha').replace('sleep 1', 'sleep 3'));
      fs.writeFileSync(
        path.join(manifests, 'beta.yaml'),
        `${staticPod('beta')}    livenessProbe: {exec: {command: ["true"]}}\n`,
      );
      const replaced = await run(['plan', ...node(), '--detailed-exitcode']);
      assert.equal(replaced.code, 2, replaced.stderr);
      assert.match(replaced.stdout, /^Pod e2e-static\/alpha-e2e-node: replaced: file changed, kubelet starts uid/m);
      const crio = labRuntime().kind === 'crio';
      // (CRI-O: the old command is not in its verbose info, so the command edit is one of the
      // changes no recorded field shows, as the probe is)
      if (!crio)
        assert.match(
          replaced.stdout,
          /^ {2}main: command …e; do sleep 1; done"\] → …e; do sleep 3; done"\]: the new pod starts it so$/m,
        );
      assert.equal(
        replaced.stdout.match(/^What changed: no field the runtime records \(a probe/gm)?.length,
        crio ? 2 : 1,
        replaced.stdout,
      );
      const j = JSON.parse((await run(['plan', ...node(), '-o', 'json'])).stdout);
      const alpha = j.plans.find((x: any) => x.pod.name === 'alpha-e2e-node');
      assert.deepEqual(
        alpha.replaces.differences.map((d: any) => [d.container, d.verdict, d.differences.map((f: any) => f.field)]),
        crio ? [] : [['main', 'recreates-pod', ['command']]],
      );
      assert.equal(j.summary.text, 'Node e2e-node: 2 pods: 2 with changes (2 replaced), 0 without; 1 other orphan.');
    } finally {
      fs.writeFileSync(path.join(manifests, 'alpha.yaml'), staticPod('alpha'));
      fs.writeFileSync(path.join(manifests, 'beta.yaml'), staticPod('beta'));
      const sb = (await run(['pods', '-q', '--namespace', '^e2e-words$'])).stdout.trim().split('\n').filter(Boolean);
      if (sb.length) await run(['rmp', '-f', ...sb]);
    }
  });

  test("a static pod with an init container is ready after one sync --node (kubelet's next syncs run it to the app)", async () => {
    const withInit = path.join(dir, 'init-manifests');
    fs.mkdirSync(withInit);
    fs.writeFileSync(
      path.join(withInit, 'gamma.yaml'),
      staticPod('gamma').replace(
        '  containers:\n',
        `  initContainers:\n  - name: prepare\n    image: ${BUSYBOX_IMAGE}\n    command: ["sh", "-c", "sleep 1"]\n  containers:\n`,
      ),
    );
    const flags = [...nodeFlags(lab), '--node', '--static-pod-path', withInit];
    const sync = await run(['sync', ...flags, '--yes']);
    assert.equal(sync.code, 0, sync.stdout + sync.stderr);
    const ps = JSON.parse(
      (await run(['ps', '-a', '-o', 'json', '--name', '^(prepare|main)$', '--namespace', '^e2e-static$'])).stdout,
    ).containers;
    const gamma = ps.filter((c: any) => c.labels['io.kubernetes.pod.name'] === 'gamma-e2e-node');
    assert.deepEqual(gamma.map((c: any) => `${c.metadata.name}:${c.state}`).sort(), [
      'main:CONTAINER_RUNNING',
      'prepare:CONTAINER_EXITED',
    ]);
    // (the other static pods of this lab are orphans to this staticPodPath: only gamma's plan is asked here)
    const again = JSON.parse((await run(['plan', ...flags, '-o', 'json'])).stdout);
    assert.deepEqual(
      again.plans.map((x: any) => [x.pod.name, x.steps.length]),
      [['gamma-e2e-node', 0]],
    );
    const ids = (await run(['pods', '-q', '--name', '^gamma-e2e-node$'])).stdout.trim().split('\n');
    assert.equal((await run(['rmp', '-f', ...ids])).code, 0);
  });

  test("rmp/rm -a --node keep what the node's desired pods run; everything else goes (orphans, pods made by hand)", async () => {
    const extra = path.join(dir, 'orphan-2.json');
    fs.writeFileSync(
      extra,
      podManifest({
        name: 'leftover-2',
        uid: '0b0b0b0b-1111-2222-3333-444444444444',
        containers: [{ name: 'x', image: BUSYBOX_IMAGE }],
      }),
    );
    const runp = await run(['runp', ...nodeFlags(lab), extra]);
    assert.equal(runp.code, 0, runp.stderr);
    const leftover = runp.stdout.trim();
    const before = await sandboxes();
    let handmade: string = before.find((s) => s.metadata.name === 'handmade')?.id;
    if (labRuntime().kind === 'crio') {
      // CRI-O labelled the first test's hand-made sandbox like kubelet's pods, so it went as an
      // orphan there: made again, it is a pod made by hand for this test.
      assert.equal(handmade, undefined);
      const again = await run(['runp', path.join(dir, 'bare.json')]);
      assert.equal(again.code, 0, again.stderr);
      handmade = again.stdout.trim();
    }
    const statics = before
      .filter((s) => /^(alpha|beta)-e2e-node$/.test(s.metadata.name))
      .map((s) => s.id)
      .sort();
    assert.equal(statics.length, 2);
    const desired = ['--node', '--static-pod-path', manifests, '--node-name', 'e2e-node'];

    const dry = await run(['rmp', '-a', '-f', '--dry-run', ...desired]);
    assert.equal(dry.code, 0, dry.stderr);
    const requested = [...dry.stdout.matchAll(/"podSandboxId": "([0-9a-f]{64})"/g)].map((m) => m[1]).sort();
    assert.deepEqual(requested, [handmade, leftover].sort());
    assert.match(
      dry.stderr,
      /^2 pod sandboxes to go:\n(  [0-9a-f]{13}  \S+ \(ready\)\n){2}2 pod sandboxes kept for the pods this node should run:\n/,
    );
    assert.match(dry.stderr, /e2e-static\/alpha-e2e-node \(ready\)  desired pod e2e-static\/alpha-e2e-node\n/);

    const rm = await run(['rm', '-a', '-f', ...desired]);
    assert.equal(rm.code, 0, rm.stderr);
    assert.match(rm.stderr, /^0 containers to go\n2 containers kept for the pods this node should run:\n/);

    const rmp = await run(['rmp', '-a', '-f', ...desired]);
    assert.equal(rmp.code, 0, rmp.stderr);
    const left = await sandboxes();
    assert.deepEqual(left.map((s) => s.id).sort(), statics);
    assert.ok(left.every((s) => s.state === 'SANDBOX_READY'));
    const ps = JSON.parse((await run(['ps', '-o', 'json', '--namespace', '^e2e-static$'])).stdout).containers;
    assert.deepEqual(
      ps.map((c: any) => c.state),
      ['CONTAINER_RUNNING', 'CONTAINER_RUNNING'],
    );

    assertOneLineError(
      await run(['rmp', '--node', '--static-pod-path', manifests, leftover]),
      /^syncpod: --node needs -a/,
    );
    assertOneLineError(
      await run(['rm', '-a', '--static-pod-path', manifests]),
      /^syncpod: --static-pod-path, --pods and --node-name need --node$/,
    );
    assertOneLineError(
      await run(['rmp', '-a', '--node', '--node-name', 'e2e-node']),
      /^syncpod: --node: no desired pods were given/,
    );
    const broken = path.join(dir, 'broken-list.yaml');
    fs.writeFileSync(broken, 'apiVersion: v1\nkind: List\nitems:\n- kind: ConfigMap\n  metadata:\n    name: c\n');
    const refused = await run(['rmp', '-a', '-f', ...desired, '--pods', broken]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /broken-list\.yaml: document 1: items\[0\]: ConfigMap\/c is not a Pod/);
    assert.match(
      refused.stderr,
      /^syncpod: --node: a desired pod input could not be read, so a pod the node should run could go; nothing was done$/m,
    );
    assert.equal((await sandboxes()).length, 2);
  });

  test('bad input: a file that is not a pod and a List with a non-pod are one line each; the rest is planned', async () => {
    const bad = path.join(dir, 'bad-manifests');
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, 'alpha.yaml'), staticPod('alpha'));
    fs.writeFileSync(path.join(bad, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n');
    const list = path.join(dir, 'list.yaml');
    fs.writeFileSync(
      list,
      `apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: d\n`,
    );
    const r = await run([
      'plan',
      ...nodeFlags(lab),
      '--node',
      '--static-pod-path',
      bad,
      list,
      '-o',
      'json',
      '--detailed-exitcode',
    ]);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('syncpod: '));
    assert.equal(lines.length, 2, r.stderr);
    assert.ok(lines.some((l) => /cm\.yaml: ConfigMap is not a Pod/.test(l)));
    assert.ok(lines.some((l) => /list\.yaml: document 1: items\[0\]: Deployment\/d is not a Pod/.test(l)));
    assert.ok(!/\n\s+at /.test(r.stderr));
    const p = JSON.parse(r.stdout);
    assert.deepEqual(
      p.plans.map((x: any) => x.pod.name),
      ['alpha-e2e-node'],
    );

    const missing = await run(['plan', ...nodeFlags(lab), '--node', '--static-pod-path', path.join(dir, 'nope')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^syncpod: staticPodPath .*nope: no such directory/m);
  });

  test('rmi --prune keeps the sandbox image, images in use and (with --node) images desired pods need', async () => {
    const row = (out: string, tag: string) => out.split('\n').find((l) => l.includes(tag)) ?? '';
    const inUse = await run(['rmi', '--prune', '--dry-run']);
    assert.equal(inUse.code, 0, inUse.stderr);
    assert.match(row(inUse.stdout, PAUSE_IMAGE), SANDBOX_KEEP);
    assert.match(row(inUse.stdout, BUSYBOX_IMAGE), /keep: used by container [0-9a-f]{64}, [0-9a-f]{64}$/);
    assert.equal((await run(['rmi', '-q', '--dry-run'])).stdout, inUse.stdout, "crictl's short flag for --prune is -q");

    // With the static pods' containers gone, busybox is used by nothing: only --node keeps it.
    const ids = (await run(['ps', '-a', '-q'])).stdout.trim().split('\n').filter(Boolean);
    assert.equal((await run(['rm', '-f', ...ids])).code, 0);
    const desired = await run([
      'rmi',
      '--prune',
      '--dry-run',
      '--node',
      '--node-name',
      'e2e-node',
      '--static-pod-path',
      manifests,
    ]);
    assert.equal(desired.code, 0, desired.stderr);
    assert.match(
      row(desired.stdout, BUSYBOX_IMAGE),
      /keep: needed by desired pod e2e-static\/alpha-e2e-node, e2e-static\/beta-e2e-node$/,
    );
    assert.match(row(desired.stdout, PAUSE_IMAGE), SANDBOX_KEEP);
    assert.match(desired.stderr, /^0 images would be removed; none was \(--dry-run\)$/m);

    const prune = await run(['rmi', '--prune']);
    assert.equal(prune.code, 0, prune.stderr);
    assert.equal(prune.stdout, `Deleted: ${BUSYBOX_IMAGE}\nDeleted: ${BUSYBOX_IMAGE_2}\n`);
    const tags = JSON.parse((await run(['images', '-o', 'json'])).stdout).images.flatMap((i: any) => i.repoTags);
    assert.deepEqual(tags, [PAUSE_IMAGE]);
  });
});
