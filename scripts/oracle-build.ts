// Builds syncpod's kubelet oracle for one kubelet minor: a small Go program (oracle/go/main.go and
// the minor's driver part in oracle/go/driver/) that depends on k8s.io/kubernetes at a release from
// the Go module proxy, with files of its own added to pkg/kubelet/kuberuntime through
// `go build -overlay` (oracle/go/overlay/shared/ and the directories the minor's ORACLE_MINORS row names),
// so kubelet's real GetPods, GetPodStatus and SyncPod run against kubelet's fake CRI services.
// go.mod/go.sum per minor live in oracle/v1.M/ (generated on the first build: every module pinned
// to the version the release's own go.mod names, every staging module k8s.io/X => k8s.io/X v0.M.P;
// generation fails rather than let a dependency move). Builds never change go.mod (-mod=readonly).
// The binary goes to the git-ignored .oracle/bin/ and is rebuilt only when an input changed.
// Needs Go (1.26) and the module proxy. One Go build cache and module cache serve every minor.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/**
 * The newest patch the module proxy serves of each minor (k8s.io/kubernetes), the driver parts it
 * takes (oracle/go/driver/): RestartAllContainers from 1.35, UpdatePodSandboxResources from 1.33,
 * CRI types as google.golang.org/protobuf messages from 1.34 (gogo/protobuf before), pod-level resources
 * in the PodSpec from 1.32; and the overlay
 * directories (oracle/go/overlay/) whose files are added to kuberuntime besides overlay/shared/: one
 * per distinct set of the unexported names kubelet gives those parts (minors with the same names
 * share one, named after the first of them), plus memory-usage/ where kubelet reads the pod's memory
 * usage before a decrease (1.34+). v1.29/ serves 1.29 and 1.30 (v1.29.6 is the only 1.29 patch the
 * proxy serves).
 */
export const ORACLE_MINORS: Record<string, { release: string; driver: string[]; overlay: string[] }> = {
  '1.29': {
    release: 'v1.29.6',
    driver: ['no-restart-all.go', 'gogojson.go', 'no-pod-resources.go'],
    overlay: ['v1.29'],
  },
  '1.30': {
    release: 'v1.30.14',
    driver: ['no-restart-all.go', 'gogojson.go', 'no-pod-resources.go'],
    overlay: ['v1.29'],
  },
  '1.31': {
    release: 'v1.31.14',
    driver: ['no-restart-all.go', 'gogojson.go', 'no-pod-resources.go'],
    overlay: ['v1.31'],
  },
  '1.32': { release: 'v1.32.13', driver: ['no-restart-all.go', 'gogojson.go', 'pod-resources.go'], overlay: ['v1.32'] },
  '1.33': {
    release: 'v1.33.13',
    driver: ['no-restart-all.go', 'sandbox-resources.go', 'gogojson.go', 'pod-resources.go'],
    overlay: ['v1.33'],
  },
  '1.34': {
    release: 'v1.34.4',
    driver: ['no-restart-all.go', 'sandbox-resources.go', 'protojson.go', 'pod-resources.go'],
    overlay: ['v1.34', 'memory-usage'],
  },
  '1.35': {
    release: 'v1.35.4',
    driver: ['restart-all.go', 'sandbox-resources.go', 'protojson.go', 'pod-resources.go'],
    overlay: ['v1.35', 'memory-usage'],
  },
  '1.36': {
    release: 'v1.36.3',
    driver: ['restart-all.go', 'sandbox-resources.go', 'protojson.go', 'pod-resources.go'],
    overlay: ['v1.36', 'memory-usage'],
  },
  '1.37': {
    release: 'v1.37.2',
    driver: ['restart-all.go', 'sandbox-resources.go', 'protojson.go', 'pod-resources.go'],
    overlay: ['v1.37', 'memory-usage'],
  },
};

/** The release of each minor. */
export const ORACLE_RELEASES: Record<string, string> = Object.fromEntries(
  Object.entries(ORACLE_MINORS).map(([m, v]) => [m, v.release]),
);

const go = (args: string[], cwd: string, quiet = false, mod = 'readonly'): string =>
  execFileSync('nice', ['-n', '10', 'go', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
    env: { ...process.env, GOFLAGS: `-mod=${mod}`, GOTOOLCHAIN: 'local' },
  });

/** The requirements of a go.mod (module -> version), both require blocks and single lines. */
export function goModRequires(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let inBlock = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (inBlock) {
      if (line === ')') inBlock = false;
      else {
        const m = /^(\S+)\s+(\S+)$/.exec(line);
        if (m) out.set(m[1], m[2]);
      }
    } else if (line === 'require (') inBlock = true;
    else {
      const m = /^require\s+(\S+)\s+(\S+)$/.exec(line);
      if (m) out.set(m[1], m[2]);
    }
  }
  return out;
}

/** The packages the overlay files import (the build module must resolve them too). */
function overlayImports(files: string[]): string[] {
  const out = new Set<string>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const block = /^import \(([\s\S]*?)^\)/m.exec(text)?.[1] ?? '';
    for (const m of block.matchAll(/"([^"]+)"/g)) if (m[1].includes('.')) out.add(m[1]);
  }
  return [...out].sort();
}

/** The go.mod of the oracle module at a release: kubernetes itself plus a replace line per staging module. */
function upstreamGoMod(release: string, buildDir: string): { text: string; staging: string[] } {
  const info = JSON.parse(go(['mod', 'download', '-json', `k8s.io/kubernetes@${release}`], buildDir, true, 'mod'));
  const text = readFileSync(info.GoMod, 'utf8');
  const staging = [...text.matchAll(/^\s*(k8s\.io\/[\w.-]+)\s+=>\s+\.\/staging\/src\//gm)].map((m) => m[1]);
  if (staging.length === 0) throw new Error(`no staging modules in k8s.io/kubernetes ${release}'s go.mod`);
  return { text, staging };
}

function goModFor(release: string, buildDir: string, substitutes: Map<string, string>): string {
  const { text, staging } = upstreamGoMod(release, buildDir);
  const stagingVersion = release.replace(/^v1\./, 'v0.');
  const pinned = [...goModRequires(text)].filter(([m]) => !staging.includes(m));
  const replaceLine = (m: string) => {
    const sub = substitutes.get(m);
    return sub
      ? `\t${m} => ${m} ${sub} // ${stagingVersion} is not on the module proxy: the nearest patch it serves`
      : `\t${m} => ${m} ${stagingVersion}`;
  };
  return [
    'module syncpod.local/oracle',
    '',
    'go 1.26',
    '',
    'require (',
    `\tk8s.io/kubernetes ${release}`,
    ...pinned.map(([m, v]) => `\t${m} ${v}`),
    ')',
    '',
    'replace (',
    ...staging.map(replaceLine),
    ')',
    '',
  ].join('\n');
}

/** The patch of a staging module's minor nearest to the wanted one, among those the proxy serves. */
function nearestPatch(module: string, wanted: string, cwd: string): string | undefined {
  const [, minor, patch] = /^v0\.(\d+)\.(\d+)$/.exec(wanted) ?? [];
  const served = go(['list', '-m', '-versions', module], cwd, true, 'mod')
    .trim()
    .split(/\s+/)
    .slice(1)
    .filter((v) => new RegExp(`^v0\\.${minor}\\.\\d+$`).test(v));
  const distance = (v: string) => Math.abs(Number(v.split('.')[2]) - Number(patch));
  return served.sort((x, y) => distance(x) - distance(y) || x.localeCompare(y, 'en', { numeric: true }))[0];
}

/**
 * go mod tidy of a fresh oracle module. The proxy may lack a staging module at the release's
 * v0.M.P (it serves k8s.io/cri-api v0.29.14 but not v0.29.6): that module is then replaced by the
 * nearest patch of the same minor it serves, said in a comment on its replace line, and tidy runs again.
 */
function tidyFresh(release: string, buildDir: string, log: (line: string) => void): void {
  const substitutes = new Map<string, string>();
  for (;;) {
    writeFileSync(join(buildDir, 'go.mod'), goModFor(release, buildDir, substitutes));
    try {
      go(['mod', 'tidy'], buildDir, true, 'mod');
      return;
    } catch (e) {
      const stderr = String((e as { stderr?: string }).stderr ?? '');
      const missing = [...stderr.matchAll(/(k8s\.io\/[\w.-]+)@(v0\.\d+\.\d+): reading \S+: (?:403|404|410)/g)];
      const fresh = [...new Map(missing.map(([, m, v]) => [m, v]))].filter(([m]) => !substitutes.has(m));
      if (fresh.length === 0) throw new Error(`oracle ${release}: go mod tidy failed:\n${stderr.trim()}`);
      for (const [m, v] of fresh) {
        const near = nearestPatch(m, v, buildDir);
        if (!near) throw new Error(`oracle ${release}: the module proxy serves no ${m} of ${v}'s minor`);
        log(`oracle ${release}: ${m} ${v} is not on the module proxy; using ${near}`);
        substitutes.set(m, near);
      }
    }
  }
}

/**
 * After tidy: every module must stay at the release's own version (a staging module at v0.M.P).
 * A module the release does not name, or one moved to another version, fails the generation.
 */
function checkPinned(release: string, buildDir: string, tidied: string): void {
  const { text, staging } = upstreamGoMod(release, buildDir);
  const want = goModRequires(text);
  const moved: string[] = [];
  for (const [m, v] of goModRequires(tidied)) {
    // A staging module's version is the one on its replace line (v0.M.P, or the nearest patch
    // the proxy serves), whatever version tidy writes in its require line.
    if (staging.includes(m)) continue;
    const expect = m === 'k8s.io/kubernetes' ? release : want.get(m);
    if (v !== expect) moved.push(`${m} ${v} (${release} has ${expect ?? 'no such module'})`);
  }
  if (moved.length)
    throw new Error(
      `oracle ${release}: go mod tidy moved dependencies off the release's versions: ${moved.join('; ')}`,
    );
}

/** The oracle's sources for a minor: the driver files and the files the overlay adds to kuberuntime. */
function oracleSources(minor: string): { driver: string[]; overlay: string[] } {
  const src = join(ROOT, 'oracle', 'go');
  const dirs = ['shared', ...ORACLE_MINORS[minor].overlay].map((d) => join(src, 'overlay', d));
  const goFiles = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.go'))
      .sort()
      .map((f) => join(dir, f));
  return {
    driver: [join(src, 'main.go'), ...ORACLE_MINORS[minor].driver.map((f) => join(src, 'driver', f))],
    overlay: dirs.flatMap(goFiles),
  };
}

/** Builds (or finds cached) the oracle binary of a minor; returns its path. */
export function buildOracle(minor: string, log: (line: string) => void = () => undefined, modulesOnly = false): string {
  const release = ORACLE_RELEASES[minor];
  if (!release)
    throw new Error(`no oracle release for kubelet ${minor} (have ${Object.keys(ORACLE_RELEASES).join(', ')})`);
  const { driver, overlay: overlayFiles } = oracleSources(minor);
  const modDir = join(ROOT, 'oracle', `v${minor}`);
  const buildDir = join(ROOT, '.oracle', 'build', release);
  const bin = join(ROOT, '.oracle', 'bin', `kubelet-oracle-${release}`);
  rmSync(buildDir, { recursive: true, force: true });
  mkdirSync(buildDir, { recursive: true });
  mkdirSync(join(ROOT, '.oracle', 'bin'), { recursive: true });
  mkdirSync(modDir, { recursive: true });
  const modFile = join(modDir, 'go.mod');
  const sumFile = join(modDir, 'go.sum');
  for (const f of driver) copyFileSync(f, join(buildDir, f.split('/').pop() as string));
  // The overlay's imports, named in the build module so tidy resolves them at the release's versions
  // (a package the release's modules lack then fails here instead of pulling a newer module).
  writeFileSync(
    join(buildDir, 'overlay_imports.go'),
    `package main\n\nimport (\n${overlayImports(overlayFiles)
      .map((i) => `\t_ "${i}"\n`)
      .join('')})\n`,
  );
  if (!existsSync(modFile)) {
    log(`oracle ${release}: writing go.mod (pinned to ${release}'s go.mod) and resolving it with the module proxy`);
    tidyFresh(release, buildDir, log);
    const tidied = readFileSync(join(buildDir, 'go.mod'), 'utf8');
    checkPinned(release, buildDir, tidied);
    copyFileSync(join(buildDir, 'go.mod'), modFile);
    copyFileSync(join(buildDir, 'go.sum'), sumFile);
  } else {
    copyFileSync(modFile, join(buildDir, 'go.mod'));
    if (existsSync(sumFile)) copyFileSync(sumFile, join(buildDir, 'go.sum'));
  }
  if (modulesOnly) return modFile;
  const stamp = createHash('sha256');
  for (const f of [...driver, ...overlayFiles, modFile, sumFile]) stamp.update(f).update(readFileSync(f));
  stamp.update(go(['version'], buildDir, true));
  const digest = stamp.digest('hex');
  const stampFile = `${bin}.stamp`;
  if (existsSync(bin) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) return bin;
  // go refuses an overlay beneath the module cache: kubernetes is used through a symbolic link
  // to its module-cache directory, named in a replace line of the build's own go.mod copy.
  const cached = go(['list', '-m', '-f', '{{.Dir}}', 'k8s.io/kubernetes'], buildDir, true).trim();
  if (!cached) go(['mod', 'download', `k8s.io/kubernetes@${release}`], buildDir, true);
  const kubeCached = cached || go(['list', '-m', '-f', '{{.Dir}}', 'k8s.io/kubernetes'], buildDir, true).trim();
  const kubeDir = join(ROOT, '.oracle', 'src', `kubernetes@${release}`);
  mkdirSync(join(ROOT, '.oracle', 'src'), { recursive: true });
  rmSync(kubeDir, { force: true });
  symlinkSync(kubeCached, kubeDir);
  writeFileSync(
    join(buildDir, 'go.mod'),
    `${readFileSync(modFile, 'utf8')}\nreplace k8s.io/kubernetes => ${kubeDir}\n`,
  );
  const overlay = join(buildDir, 'overlay.json');
  const target = join(kubeDir, 'pkg/kubelet/kuberuntime');
  writeFileSync(
    overlay,
    JSON.stringify({
      Replace: Object.fromEntries(overlayFiles.map((f) => [join(target, f.split('/').pop() as string), f])),
    }),
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

// `npm run oracle:build [-- --modules-only] [MINOR...]`: every minor by default, in sequence;
// --modules-only writes and downloads go.mod/go.sum without compiling.
if (require.main === module) {
  const args = process.argv.slice(2);
  const modulesOnly = args.includes('--modules-only');
  const minors = args.filter((a) => a !== '--modules-only');
  for (const minor of minors.length ? minors : Object.keys(ORACLE_MINORS))
    console.log(buildOracle(minor, (l) => console.error(l), modulesOnly));
}
