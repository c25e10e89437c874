// Builds syncpod's kubelet oracle for one kubelet minor: a small Go program (oracle/go/main.go)
// that depends on k8s.io/kubernetes at a release from the Go module proxy, with one file of its
// own added to pkg/kubelet/kuberuntime through `go build -overlay` (oracle/go/overlay/v1.M/), so
// kubelet's real GetPods, GetPodStatus and SyncPod run against kubelet's fake CRI services.
// go.mod/go.sum per minor live in oracle/v1.M/ (generated on the first build from the release's
// own go.mod: every staging module k8s.io/X => k8s.io/X v0.M.P). The binary goes to the git-ignored
// .oracle/bin/ and is rebuilt only when an input changed. Needs Go (1.26) and the module proxy.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/** The newest patch the module proxy serves of each minor (k8s.io/kubernetes). */
export const ORACLE_RELEASES: Record<string, string> = {
  '1.34': 'v1.34.4',
  '1.35': 'v1.35.4',
  '1.36': 'v1.36.3',
  '1.37': 'v1.37.2',
};

const go = (args: string[], cwd: string, quiet = false): string =>
  execFileSync('go', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
    env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' },
  });

/** The go.mod of the oracle module at a release: kubernetes itself plus a replace line per staging module. */
function goModFor(release: string, buildDir: string): string {
  const info = JSON.parse(go(['mod', 'download', '-json', `k8s.io/kubernetes@${release}`], buildDir, true));
  const upstream = readFileSync(info.GoMod, 'utf8');
  const staging = [...upstream.matchAll(/^\s*(k8s\.io\/[\w.-]+)\s+=>\s+\.\/staging\/src\//gm)].map((m) => m[1]);
  if (staging.length === 0) throw new Error(`no staging modules in k8s.io/kubernetes ${release}'s go.mod`);
  const stagingVersion = release.replace(/^v1\./, 'v0.');
  return [
    'module syncpod.local/oracle',
    '',
    'go 1.26',
    '',
    `require k8s.io/kubernetes ${release}`,
    '',
    'replace (',
    ...staging.map((m) => `\t${m} => ${m} ${stagingVersion}`),
    ')',
    '',
  ].join('\n');
}

/** Builds (or finds cached) the oracle binary of a minor; returns its path. */
export function buildOracle(minor: string, log: (line: string) => void = () => undefined): string {
  const release = ORACLE_RELEASES[minor];
  if (!release)
    throw new Error(`no oracle release for kubelet ${minor} (have ${Object.keys(ORACLE_RELEASES).join(', ')})`);
  const src = join(ROOT, 'oracle', 'go');
  const modDir = join(ROOT, 'oracle', `v${minor}`);
  const overlayFile = join(src, 'overlay', `v${minor}`, 'zz_syncpod_oracle.go');
  const buildDir = join(ROOT, '.oracle', 'build', release);
  const bin = join(ROOT, '.oracle', 'bin', `kubelet-oracle-${release}`);
  mkdirSync(buildDir, { recursive: true });
  mkdirSync(join(ROOT, '.oracle', 'bin'), { recursive: true });
  mkdirSync(modDir, { recursive: true });
  const modFile = join(modDir, 'go.mod');
  const sumFile = join(modDir, 'go.sum');
  const minorFile = join(src, 'minor', `v${minor}`, 'minor.go');
  copyFileSync(join(src, 'main.go'), join(buildDir, 'main.go'));
  copyFileSync(minorFile, join(buildDir, 'minor.go'));
  if (!existsSync(modFile)) {
    log(`oracle ${release}: writing go.mod and resolving it with the module proxy`);
    writeFileSync(join(buildDir, 'go.mod'), goModFor(release, buildDir));
    go(['mod', 'tidy'], buildDir);
    copyFileSync(join(buildDir, 'go.mod'), modFile);
    copyFileSync(join(buildDir, 'go.sum'), sumFile);
  } else {
    copyFileSync(modFile, join(buildDir, 'go.mod'));
    if (existsSync(sumFile)) copyFileSync(sumFile, join(buildDir, 'go.sum'));
  }
  const stamp = createHash('sha256');
  for (const f of [join(src, 'main.go'), minorFile, overlayFile, modFile, sumFile]) stamp.update(readFileSync(f));
  stamp.update(go(['version'], buildDir, true));
  const digest = stamp.digest('hex');
  const stampFile = `${bin}.stamp`;
  if (existsSync(bin) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) return bin;
  // go refuses an overlay beneath the module cache: kubernetes is used through a symbolic link
  // to its module-cache directory, named in a replace line of the build's own go.mod copy.
  const cached = go(['list', '-m', '-f', '{{.Dir}}', 'k8s.io/kubernetes'], buildDir, true).trim();
  const kubeDir = join(ROOT, '.oracle', 'src', `kubernetes@${release}`);
  mkdirSync(join(ROOT, '.oracle', 'src'), { recursive: true });
  rmSync(kubeDir, { force: true });
  symlinkSync(cached, kubeDir);
  writeFileSync(
    join(buildDir, 'go.mod'),
    `${readFileSync(modFile, 'utf8')}\nreplace k8s.io/kubernetes => ${kubeDir}\n`,
  );
  const overlay = join(buildDir, 'overlay.json');
  writeFileSync(
    overlay,
    JSON.stringify({ Replace: { [join(kubeDir, 'pkg/kubelet/kuberuntime/zz_syncpod_oracle.go')]: overlayFile } }),
  );
  log(`oracle ${release}: building (the first build compiles kubelet's packages: minutes)`);
  const t0 = Date.now();
  go(
    ['build', '-overlay', overlay, '-trimpath', '-ldflags', `-s -w -X main.kubeletRelease=${release}`, '-o', bin, '.'],
    buildDir,
  );
  log(`oracle ${release}: built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  writeFileSync(stampFile, digest);
  return bin;
}

if (require.main === module) {
  const minors = process.argv.slice(2);
  for (const minor of minors.length ? minors : Object.keys(ORACLE_RELEASES))
    console.log(buildOracle(minor, (l) => console.error(l)));
}
