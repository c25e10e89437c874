// npm run anchors:kubelet — builds the kubelet of the release anchors/kubelet/go.mod pins (k8s.io/kubernetes,
// from the Go module proxy; the staging modules k8s.io/* at the matching v0.x) into .anchors/kubelet-<version>/
// (git-ignored), so that the upgrade preview can be checked against the kubelet itself. The build module holds
// only go.mod/go.sum (a `tool` line names cmd/kubelet); nothing upstream is committed. Heavy: 13–40 minutes
// of 2 busy cores the first time; kept under SYNCPOD_ANCHORS_CACHE (default /var/cache/syncpod/anchors), keyed
// by the version, the Go version and go.sum, and copied from there afterwards.
// Ends with the line `KUBELET=<path>` on stdout.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const modDir = join(root, 'anchors/kubelet');
const outRoot = process.env.SYNCPOD_ANCHORS_DIR || join(root, '.anchors');
const cacheRoot = process.env.SYNCPOD_ANCHORS_CACHE || '/var/cache/syncpod/anchors';

const version = /^require k8s\.io\/kubernetes (v\S+)$/m.exec(readFileSync(join(modDir, 'go.mod'), 'utf8'))?.[1];
if (!version) throw new Error('anchors/kubelet/go.mod: no require line for k8s.io/kubernetes');
const goVersion = execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim();
const key = createHash('sha256')
  .update(`${version}\n${goVersion}\n`)
  .update(readFileSync(join(modDir, 'go.sum')))
  .digest('hex')
  .slice(0, 16);
const cached = join(cacheRoot, `kubelet-${version}-${key}`, 'kubelet');
const out = join(outRoot, `kubelet-${version}`, 'kubelet');
mkdirSync(dirname(out), { recursive: true });
if (!existsSync(cached)) {
  mkdirSync(dirname(cached), { recursive: true });
  const tmp = `${cached}.tmp`;
  process.stderr.write(`building kubelet ${version} (${goVersion}); this takes a while\n`);
  // The version kubelet --version prints (as the release build stamps it; the feature gates' emulation
  // version comes from component-base's own constant, not from this).
  const minor = /^v1\.(\d+)/.exec(version)[1];
  const ldflags = [
    '-s -w',
    `-X k8s.io/component-base/version.gitVersion=${version}`,
    '-X k8s.io/component-base/version.gitMajor=1',
    `-X k8s.io/component-base/version.gitMinor=${minor}`,
    '-X k8s.io/component-base/version.gitTreeState=clean',
  ].join(' ');
  execFileSync('go', ['build', '-trimpath', '-ldflags', ldflags, '-o', tmp, 'k8s.io/kubernetes/cmd/kubelet'], {
    cwd: modDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' },
  });
  renameSync(tmp, cached);
}
copyFileSync(cached, out);
execFileSync('chmod', ['0755', out]);
process.stdout.write(`KUBELET=${out}\n`);
