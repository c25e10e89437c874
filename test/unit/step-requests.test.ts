// crictl-style create requests: the files as they are, with crictl 1.37's one addition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crictlContainerRequest, type ConfigDocument } from '../../src/workflows/step-requests';

const doc = (d: unknown): ConfigDocument => ({ file: 'f.json', text: JSON.stringify(d), doc: d, isManifest: false });

test("create CONTAINER.json SANDBOX.json: an image without user_specified_image gets its own name there (crictl 1.37's create; CRI-O refuses without it); a given one is kept", () => {
  const sandbox = doc({ metadata: { name: 'raw', namespace: 'e2e', uid: 'u', attempt: 0 } });
  const plain = crictlContainerRequest(
    'pod',
    doc({ metadata: { name: 'c' }, image: { image: 'busybox:1.36' } }),
    sandbox,
  );
  assert.equal(plain.config.image?.image, 'busybox:1.36');
  assert.equal(plain.config.image?.userSpecifiedImage, 'busybox:1.36');
  assert.equal(plain.podSandboxId, 'pod');
  assert.equal(plain.sandboxConfig.metadata?.name, 'raw');
  const given = crictlContainerRequest(
    'pod',
    doc({ metadata: { name: 'c' }, image: { image: 'sha256:abc', user_specified_image: 'busybox:1.36' } }),
    sandbox,
  );
  assert.equal(given.config.image?.userSpecifiedImage, 'busybox:1.36');
  const none = crictlContainerRequest('pod', doc({ metadata: { name: 'c' } }), sandbox);
  assert.equal(none.config.image?.userSpecifiedImage ?? '', '');
});
