// Kubelet-aware prune selection: pinned, in use, desired, the sandbox (pause) image.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchImage, sandboxImageFromInfo, selectPrunableImages, type RuntimeImage } from '../../src/kubelet/image-gc';

const img = (id: string, tags: string[], pinned = false): RuntimeImage => ({
  id: `sha256:${id}`,
  repoTags: tags,
  repoDigests: [],
  pinned,
});
const images = [
  img('aaa', ['registry.k8s.io/pause:3.6']),
  img('bbb', ['docker.io/library/busybox:1.36']),
  img('ccc', ['docker.io/library/nginx:latest']),
  img('ddd', ['quay.io/x/pinned:1'], true),
  img('eee', ['docker.io/library/unused:1']),
];

test('prune keeps pinned, in-use, desired and sandbox images; the rest goes', () => {
  const v = selectPrunableImages({
    images,
    containers: [{ id: 'c1', image: 'sha256:ccc' }],
    desired: [{ image: 'busybox:1.36', pod: 'default/web' }],
    sandboxImage: 'registry.k8s.io/pause:3.6',
  });
  assert.deepEqual(
    v.map((x) => [x.id.slice(7), x.keep ?? 'remove']),
    [
      ['aaa', 'sandbox-image'],
      ['bbb', 'desired'],
      ['ccc', 'in-use'],
      ['ddd', 'pinned'],
      ['eee', 'remove'],
    ],
  );
  assert.deepEqual(v[1].by, ['default/web']);
});

test('verdicts come in image id order whatever order the runtime lists them in (containerd lists from a map)', () => {
  const input = {
    containers: [{ id: 'c1', image: 'sha256:ccc' }],
    desired: [],
    sandboxImage: 'registry.k8s.io/pause:3.6',
  };
  const forward = selectPrunableImages({ ...input, images });
  const backward = selectPrunableImages({ ...input, images: [...images].reverse() });
  assert.deepEqual(backward, forward);
  assert.deepEqual(
    forward.map((x) => x.id.slice(7)),
    ['aaa', 'bbb', 'ccc', 'ddd', 'eee'],
  );
});

test('references match normalised tags, defaulted latest, and ids', () => {
  assert.equal(matchImage(images, 'nginx')?.id, 'sha256:ccc');
  assert.equal(matchImage(images, 'docker.io/busybox:1.36')?.id, 'sha256:bbb');
  assert.equal(matchImage(images, 'bbb')?.id, 'sha256:bbb');
  assert.equal(matchImage(images, 'busybox:1.35'), undefined);
});

test('sandbox image from containerd 1.x and 2.x status info', () => {
  assert.equal(
    sandboxImageFromInfo({ config: JSON.stringify({ sandboxImage: 'registry.k8s.io/pause:3.6' }) }),
    'registry.k8s.io/pause:3.6',
  );
  assert.equal(
    sandboxImageFromInfo({ config: JSON.stringify({ pinnedImages: { sandbox: 'registry.k8s.io/pause:3.10' } }) }),
    'registry.k8s.io/pause:3.10',
  );
  assert.equal(sandboxImageFromInfo({ config: 'not json' }), '');
  assert.equal(sandboxImageFromInfo(undefined), '');
});
