// The rest of crictl against a real containerd: -o json with crictl's nulls, --debug messages,
// streaming (exec, attach, port-forward over the runtime's WebSocket server), stats, imagefsinfo,
// go-template. syncpod runs inside the lab's network namespace: containerd's streaming server
// listens on 127.0.0.1 there.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { CriService, type RuntimeMethods } from '../../src/cri/grpc-runtime-service';
import { syncpod, type RunOptions } from './helpers';

let lab: Lab;
let rt: CriService<RuntimeMethods>;
const ids = { pod: '', app: '', httpd: '', exited: '', talker: '' };
const POD = { name: 'web', namespace: 'team-a', uid: 'uid-web-rest' };

function sandboxConfig() {
  return {
    metadata: { ...POD, attempt: 0 },
    logDirectory: path.join(lab.podLogsRoot, `${POD.namespace}_${POD.name}_${POD.uid}`),
    labels: { 'io.kubernetes.pod.name': POD.name, 'io.kubernetes.pod.namespace': POD.namespace, 'io.kubernetes.pod.uid': POD.uid },
    annotations: {},
    linux: {},
  };
}

async function runContainer(name: string, command: string[]): Promise<string> {
  const sb = sandboxConfig();
  fs.mkdirSync(path.join(sb.logDirectory, name), { recursive: true });
  const { containerId } = await rt.call(
    'CreateContainer',
    {
      podSandboxId: ids.pod,
      config: {
        metadata: { name, attempt: 0 },
        image: { image: BUSYBOX_IMAGE },
        command,
        logPath: `${name}/0.log`,
        labels: { 'io.kubernetes.container.name': name, 'io.kubernetes.pod.name': POD.name, 'io.kubernetes.pod.namespace': POD.namespace, 'io.kubernetes.pod.uid': POD.uid },
      },
      sandboxConfig: sb,
    },
    { timeoutMs: 30000 },
  );
  await rt.call('StartContainer', { containerId }, { timeoutMs: 30000 });
  return containerId;
}

/** syncpod inside the lab's network namespace (where the streaming server is). */
const run = (args: string[], opts: RunOptions = {}) => syncpod(args, { env: lab.env, netns: lab.netns, ...opts });

before(async () => {
  lab = await startLab();
  rt = new CriService<RuntimeMethods>(lab.endpoint, 'RuntimeService', { timeoutMs: 30000 });
  ids.pod = (await rt.call('RunPodSandbox', { config: sandboxConfig() }, { timeoutMs: 60000 })).podSandboxId;
  ids.app = await runContainer('app', ['sh', '-c', 'sleep 3600']);
  ids.exited = await runContainer('once', ['sh', '-c', 'exit 0']);
});

after(async () => {
  rt?.close();
  await lab?.stop();
});

describe('-o json as crictl prints it', () => {
  test('unset message fields are null, not left out (images, inspecti, inspect, inspectp)', async () => {
    const images = JSON.parse((await run(['images', '-o', 'json'])).stdout);
    const busybox = images.images.find((i: { repoTags: string[] }) => i.repoTags.includes(BUSYBOX_IMAGE));
    assert.ok('spec' in busybox && 'uid' in busybox, 'images: spec and uid keys are present');
    assert.equal(busybox.uid, null);
    const inspecti = JSON.parse((await run(['inspecti', BUSYBOX_IMAGE])).stdout);
    assert.equal(inspecti.status.uid, null);
    const inspect = JSON.parse((await run(['inspect', ids.app])).stdout);
    assert.ok('resources' in inspect.status, 'inspect: status.resources key is present');
    const inspectp = JSON.parse((await run(['inspectp', ids.pod])).stdout);
    const options = inspectp.status.linux.namespaces.options;
    assert.ok('usernsOptions' in options, 'inspectp: usernsOptions key is present');
    assert.equal(options.usernsOptions, null);
  });
});

describe('--debug', () => {
  test('prints each request and response as protobuf JSON on stderr; stdout keeps the data', async () => {
    const r = await run(['--debug', 'ps', '-q']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim(), ids.app);
    const request = r.stderr.split('\n').find((l) => l.includes('ListContainersRequest: '));
    const response = r.stderr.split('\n').find((l) => l.includes('ListContainersResponse: '));
    assert.ok(request && response, r.stderr);
    assert.deepEqual(Object.keys(JSON.parse(request.slice(request.indexOf('{')))), ['filter']);
    const listed = JSON.parse(response.slice(response.indexOf('{'))).containers.map((c: { id: string }) => c.id);
    assert.ok(listed.includes(ids.app));
  });
});
