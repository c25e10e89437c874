// kubelet's sysctl admission on a real containerd: a pod with a sysctl outside kubelet's safe list
// and allowedUnsafeSysctls is shown as rejected (SysctlForbidden) by `plan` (exit 1), `sync` refuses
// it with one line and creates nothing; --allowed-unsafe-sysctls admits it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { syncpod } from './helpers';
import { LOOP, nodeFlags } from './sync-helpers';

let lab: Lab;
let dir: string;
const run = (args: string[]) => syncpod(args, { env: lab.env, timeoutMs: 120000 });
const UID = '5d1e7c3a-2b4f-4e6a-9c8d-7f0a1b2c3d41';

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-sysctl-'));
});

after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function writePod(name: string): string {
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(
    file,
    `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: e2e
  uid: ${UID}
spec:
  securityContext:
    sysctls:
    - name: net.ipv4.tcp_syncookies
      value: "1"
    - name: net.core.somaxconn
      value: "1024"
  containers:
  - name: app
    image: ${BUSYBOX_IMAGE}
    command: ["sh", "-c", ${JSON.stringify(LOOP)}]
`,
  );
  return file;
}

test('a sysctl kubelet does not allow: plan shows SysctlForbidden and exits 1, sync refuses with one line and creates nothing', async () => {
  const file = writePod('sysctl-forbidden');
  const plan = await run(['plan', '-o', 'json', ...nodeFlags(lab), file]);
  assert.equal(plan.code, 1, plan.stderr);
  const p = JSON.parse(plan.stdout);
  assert.deepEqual(p.rejected, {
    by: 'kubelet',
    reason: 'SysctlForbidden',
    message: 'forbidden sysctl: "net.core.somaxconn" not allowlisted',
  });
  assert.match(p.blocked, /rejected by kubelet: SysctlForbidden/);
  assert.match(plan.stderr, /pod e2e\/sysctl-forbidden is blocked: rejected by kubelet/);
  const human = await run(['plan', ...nodeFlags(lab), file]);
  assert.equal(human.code, 1, human.stderr);
  assert.match(human.stdout, /Blocked: rejected by kubelet: SysctlForbidden: forbidden sysctl: "net\.core\.somaxconn"/);

  const sync = await run(['sync', '-y', ...nodeFlags(lab), file]);
  assert.equal(sync.code, 1, sync.stdout);
  assert.equal(sync.stderr.trim().split('\n').length, 1, sync.stderr);
  assert.match(
    sync.stderr,
    /sysctl-forbidden\.yaml: document 1: spec\.securityContext\.sysctls: net\.core\.somaxconn: kubelet rejects pod e2e\/sysctl-forbidden \(SysctlForbidden: .*\); nothing was done/,
  );
  const pods = await run(['pods', '-o', 'json', '--name', '^sysctl-forbidden$']);
  assert.equal(pods.code, 0, pods.stderr);
  assert.deepEqual(JSON.parse(pods.stdout).items, []);
  assert.equal(fs.existsSync(path.join(lab.podDirRoot, 'pods', UID)), false);
  assert.equal(fs.readdirSync(lab.podLogsRoot).filter((d) => d.includes('sysctl-forbidden')).length, 0);

  // The same pod on a kubelet that allows net.core.*: admitted, nothing refused.
  const allowed = await run(['plan', '-o', 'json', '--allowed-unsafe-sysctls', 'net.core.*', ...nodeFlags(lab), file]);
  assert.equal(allowed.code, 0, allowed.stderr);
  const a = JSON.parse(allowed.stdout);
  assert.equal(a.rejected, undefined);
  assert.equal(a.blocked, null);
});
