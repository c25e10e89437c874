// deploy/kubectl-syncpod against a stand-in kubectl (no API server can run here): the pod it
// creates is deploy/debug-pod.yaml's spec with the node and the arguments filled in; it follows the
// log, exits with the container's exit code and deletes the pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.join(__dirname, '..', '..');
const PLUGIN = path.join(ROOT, 'deploy', 'kubectl-syncpod');

/** A kubectl that records its calls, keeps the created manifest, and answers as for a finished pod. */
const FAKE_KUBECTL = `#!/usr/bin/env bash
echo "$*" >> "$FAKE_DIR/calls"
case "$1" in
  create) cat > "$FAKE_DIR/manifest.json"; echo pod/syncpod-x7k2q ;;
  get) case "$*" in *phase*) echo Running ;; *exitCode*) echo 3 ;; esac ;;
  logs) echo "plan output line" ;;
  delete) ;;
esac
`;

test('kubectl syncpod NODE ARGS: the debug pod spec with node and args; log followed; exit code; pod deleted', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-plugin-'));
  try {
    fs.writeFileSync(path.join(dir, 'kubectl'), FAKE_KUBECTL, { mode: 0o755 });
    const r = spawnSync(
      'bash',
      [PLUGIN, 'worker-7', 'plan', '--node', '--static-pod-path', '/etc/kubernetes/manifests', '-o', 'json'],
      {
        env: { PATH: `${dir}:${process.env.PATH}`, FAKE_DIR: dir },
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 3, r.stderr);
    assert.equal(r.stdout, 'plan output line\n');
    const created = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    const shipped = parse(fs.readFileSync(path.join(ROOT, 'deploy', 'debug-pod.yaml'), 'utf8'));
    shipped.spec.nodeName = 'worker-7';
    shipped.spec.containers[0].args = [
      '--host-root',
      '/host',
      'plan',
      '--node',
      '--static-pod-path',
      '/etc/kubernetes/manifests',
      '-o',
      'json',
    ];
    assert.deepEqual(created.spec, shipped.spec);
    assert.equal(created.metadata.generateName, 'syncpod-');
    const calls = fs.readFileSync(path.join(dir, 'calls'), 'utf8').trim().split('\n');
    assert.equal(calls[0], 'create -n default -f - -o name');
    assert.ok(calls.includes('logs -n default -f pod/syncpod-x7k2q'), calls.join('\n'));
    assert.equal(calls.at(-1), 'delete -n default pod/syncpod-x7k2q --wait=false');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('kubectl syncpod without a node prints its usage and exits 1', () => {
  const r = spawnSync('bash', [PLUGIN], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^usage: kubectl syncpod NODE/);
});
