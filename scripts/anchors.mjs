// npm run anchors: builds the runtimes and the crictl that the tests compare syncpod with, from the Go
// module proxy, into .anchors/ (git-ignored):
//   containerd 2.x with its runc shim (and ctr)   build module anchors/containerd (go.mod pins the release)
//   crictl                                        build module anchors/crictl
// The build modules hold only go.mod/go.sum: their `tool` lines name the upstream commands, so `go build`
// of those package paths inside the module builds them at the pinned versions. Nothing upstream is
// committed here.
//
// Once per machine: a finished build is kept under SYNCPOD_ANCHORS_CACHE (default
// /var/cache/syncpod/anchors), keyed by the versions, build tags, Go version and go.sum, so a fresh clone
// (CI) copies it instead of building again. Go's own module and build caches make a rebuild after a
// version bump cheaper too.
//
// Ends with the lines `CONTAINERD2_DIR=<dir>` and `CRICTL=<path>` on stdout; the same lines are written to
// .anchors/env, where the test harness finds them when the environment does not name them.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outRoot = process.env.SYNCPOD_ANCHORS_DIR || join(root, '.anchors');
const cacheRoot = process.env.SYNCPOD_ANCHORS_CACHE || '/var/cache/syncpod/anchors';

/** The version a build module requires of `module` (from its go.mod). */
function requiredVersion(modDir, module) {
  const text = readFileSync(join(modDir, 'go.mod'), 'utf8');
  const m = text.match(new RegExp(`^\\s*(?:require\\s+)?${module.replace(/\./g, '\\.')}\\s+(v\\S+)`, 'm'));
  if (!m) throw new Error(`${join(modDir, 'go.mod')}: no require line for ${module}`);
  return m[1];
}

const CONTAINERD = 'github.com/containerd/containerd/v2';
const CRITOOLS = 'sigs.k8s.io/cri-tools';

const anchors = [
  {
    name: 'containerd',
    modDir: join(root, 'anchors/containerd'),
    module: CONTAINERD,
    builds: (version) => [
      // The daemon. no_btrfs: the btrfs snapshotter needs the btrfs-progs headers (cgo), which the test
      // machines lack and the lab does not use (overlayfs). urfave_cli_no_docs as containerd's Makefile.
      {
        packages: [`${CONTAINERD}/cmd/containerd`, `${CONTAINERD}/cmd/ctr`],
        tags: ['urfave_cli_no_docs', 'no_btrfs'],
        cgo: true,
        ldflags: `-s -w -X ${CONTAINERD}/version.Version=${version} -X ${CONTAINERD}/version.Package=${CONTAINERD}`,
      },
      // The runc shim, static and without the gRPC server code, as containerd's release builds it.
      {
        packages: [`${CONTAINERD}/cmd/containerd-shim-runc-v2`],
        tags: ['urfave_cli_no_docs', 'no_grpc'],
        cgo: false,
        ldflags: `-s -w -X ${CONTAINERD}/version.Version=${version} -X ${CONTAINERD}/version.Package=${CONTAINERD}`,
      },
    ],
    binaries: ['containerd', 'ctr', 'containerd-shim-runc-v2'],
  },
  {
    name: 'crictl',
    modDir: join(root, 'anchors/crictl'),
    module: CRITOOLS,
    builds: (version) => [
      {
        packages: [`${CRITOOLS}/cmd/crictl`],
        tags: [],
        cgo: false,
        ldflags: `-s -w -X ${CRITOOLS}/pkg/version.Version=${version}`,
      },
    ],
    binaries: ['crictl'],
  },
];

function goVersion() {
  return execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim();
}

function keyOf(anchor, version, gover) {
  const h = createHash('sha256');
  h.update(JSON.stringify({ version, gover, builds: anchor.builds(version) }));
  h.update(readFileSync(join(anchor.modDir, 'go.sum')));
  return h.digest('hex').slice(0, 16);
}

function haveAll(dir, binaries) {
  return binaries.every((b) => existsSync(join(dir, b)));
}

function build(anchor, version, dest) {
  const tmp = `${dest}.building-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const b of anchor.builds(version)) {
    const args = ['build', '-trimpath', '-o', `${tmp}/`];
    if (b.tags.length) args.push('-tags', b.tags.join(','));
    args.push('-ldflags', b.ldflags, ...b.packages);
    const started = Date.now();
    process.stderr.write(`anchors: go ${args.join(' ')}\n`);
    execFileSync('go', args, {
      cwd: anchor.modDir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, CGO_ENABLED: b.cgo ? '1' : '0', GOFLAGS: '-mod=readonly -buildvcs=false' },
    });
    process.stderr.write(
      `anchors: built ${b.packages.map((p) => p.split('/').pop()).join(', ')} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  }
  rmSync(dest, { recursive: true, force: true });
  renameSync(tmp, dest);
}

function copyDir(from, to, binaries) {
  const tmp = `${to}.copying-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const b of binaries) {
    copyFileSync(join(from, b), join(tmp, b));
    chmodSync(join(tmp, b), 0o755);
  }
  rmSync(to, { recursive: true, force: true });
  renameSync(tmp, to);
}

function main() {
  const gover = goVersion();
  const dirs = {};
  mkdirSync(outRoot, { recursive: true });
  for (const anchor of anchors) {
    const version = requiredVersion(anchor.modDir, anchor.module);
    const key = keyOf(anchor, version, gover);
    const dest = join(outRoot, `${anchor.name}-${version}`);
    const stamp = join(dest, '.key');
    const cached = join(cacheRoot, `${anchor.name}-${version}-${key}`);
    if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === key && haveAll(dest, anchor.binaries)) {
      process.stderr.write(`anchors: ${anchor.name} ${version} already built in ${dest}\n`);
    } else if (haveAll(cached, anchor.binaries)) {
      copyDir(cached, dest, anchor.binaries);
      writeFileSync(stamp, `${key}\n`);
      process.stderr.write(`anchors: ${anchor.name} ${version} copied from this machine's cache ${cached}\n`);
    } else {
      build(anchor, version, dest);
      writeFileSync(stamp, `${key}\n`);
      try {
        mkdirSync(dirname(cached), { recursive: true });
        copyDir(dest, cached, anchor.binaries);
      } catch (err) {
        process.stderr.write(`anchors: not cached for this machine (${err.message})\n`);
      }
    }
    dirs[anchor.name] = dest;
  }
  const lines = [`CONTAINERD2_DIR=${dirs.containerd}`, `CRICTL=${join(dirs.crictl, 'crictl')}`];
  writeFileSync(join(outRoot, 'env'), `${lines.join('\n')}\n`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`anchors: ${err.message.split('\n')[0]}\n`);
  process.exit(1);
}
