import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyDefaultImageTag,
  defaultImagePullPolicy,
  parseImageName,
  parseNormalizedImage,
} from '../../src/kubelet/image-ref';

const SHA = 'sha256:' + 'a'.repeat(64);

test('normalisation: domain, path, tag and digest', () => {
  const rows: Array<[string, string, string, string, string]> = [
    // image, domain, path, tag, digest
    ['nginx', 'docker.io', 'library/nginx', '', ''],
    ['nginx:1.25', 'docker.io', 'library/nginx', '1.25', ''],
    ['docker.io/nginx', 'docker.io', 'library/nginx', '', ''],
    ['index.docker.io/library/nginx:latest', 'docker.io', 'library/nginx', 'latest', ''],
    ['bitnami/redis:7', 'docker.io', 'bitnami/redis', '7', ''],
    ['registry.k8s.io/pause:3.9', 'registry.k8s.io', 'pause', '3.9', ''],
    ['localhost/app', 'localhost', 'app', '', ''],
    ['localhost:5000/app', 'localhost:5000', 'app', '', ''],
    ['Registry/app', 'Registry', 'app', '', ''],
    ['[::1]:5000/team/app:v2', '[::1]:5000', 'team/app', 'v2', ''],
    [`nginx@${SHA}`, 'docker.io', 'library/nginx', '', SHA],
    [`quay.io/a/b:1.0@${SHA}`, 'quay.io', 'a/b', '1.0', SHA],
    ['my_org/my-app__x.y', 'docker.io', 'my_org/my-app__x.y', '', ''],
  ];
  for (const [image, domain, path, tag, digest] of rows) {
    assert.deepEqual(parseNormalizedImage(image), { domain, path, tag, digest }, image);
  }
});

test('invalid references give one-line errors naming the image', () => {
  const rows: Array<[string, string]> = [
    ['', 'invalid reference format'],
    ['Nginx', 'invalid reference format: repository name (library/Nginx) must be lowercase'],
    ['docker.io/Library/nginx', 'invalid reference format: repository name (Library/nginx) must be lowercase'],
    ['nginx:', 'invalid reference format'],
    ['nginx:a/b', 'invalid reference format'],
    ['-nginx', 'invalid reference format'],
    ['nginx@sha256:abc', 'invalid reference format'],
    [`nginx@md5:${'a'.repeat(32)}`, 'unsupported digest algorithm'],
    [`nginx@sha256:${'a'.repeat(40)}`, 'invalid checksum digest length'],
    [`nginx@sha256:${'A'.repeat(64)}`, 'invalid checksum digest format'],
    ['a'.repeat(64), `invalid repository name (${'a'.repeat(64)}), cannot specify 64-byte hexadecimal strings`],
    [`r.io/${'a'.repeat(251)}`, 'repository name must not be more than 255 characters'],
  ];
  for (const [image, reason] of rows) {
    assert.throws(
      () => parseNormalizedImage(image),
      {
        name: 'SyncpodError',
        message: `couldn't parse image name ${JSON.stringify(image)}: ${reason}`,
      },
      image,
    );
  }
});

test('imagePullPolicy default follows the `latest` rule', () => {
  const rows: Array<[string, string]> = [
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['docker.io/library/nginx', 'Always'],
    ['localhost:5000/app', 'Always'],
    [`nginx:latest@${SHA}`, 'Always'],
    [`nginx@${SHA}`, 'IfNotPresent'],
    ['nginx:1.25', 'IfNotPresent'],
    ['nginx:Latest', 'IfNotPresent'],
    ['Nginx', 'IfNotPresent'],
  ];
  for (const [image, policy] of rows) assert.equal(defaultImagePullPolicy(image), policy, image);
});

test("kubelet's ParseImageName and applyDefaultImageTag", () => {
  const rows: Array<[string, string, string, string, string]> = [
    // image, repository, tag, digest, image kubelet pulls
    ['busybox', 'docker.io/library/busybox', 'latest', '', 'busybox:latest'],
    ['busybox:latest', 'docker.io/library/busybox', 'latest', '', 'busybox:latest'],
    ['localhost:5000/app', 'localhost:5000/app', 'latest', '', 'localhost:5000/app:latest'],
    ['nginx:1.25', 'docker.io/library/nginx', '1.25', '', 'nginx:1.25'],
    [`nginx@${SHA}`, 'docker.io/library/nginx', '', SHA, `nginx@${SHA}`],
  ];
  for (const [image, repository, tag, digest, pulled] of rows) {
    assert.deepEqual(parseImageName(image), { repository, tag, digest }, image);
    assert.equal(applyDefaultImageTag(image), pulled, image);
  }
});
