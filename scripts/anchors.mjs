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
//
// `node scripts/anchors.mjs --crio` (npm run anchors:crio) builds CRI-O instead (build module
// anchors/crio): crio with the build tags that need no C library the machine lacks, and its pinns
// helper compiled with cc from the same module's C source; conmon and runc come from Debian. It ends
// with `CRIO_DIR=<dir>` (also added to .anchors/env).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  readdirSync,
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
const CRIO = 'github.com/cri-o/cri-o';

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

const crioAnchor = {
  name: 'crio',
  modDir: join(root, 'anchors/crio'),
  module: CRIO,
  builds: (_version) => [
    // The tags of CRI-O's Makefile where the C library is missing here: no btrfs-progs headers
    // (exclude_graphdriver_btrfs, btrfs_noversion), no devicemapper, the OpenPGP signature code in Go
    // instead of gpgme (containers_image_openpgp); seccomp with Debian's libseccomp-dev; the ostree stub.
    {
      packages: [`${CRIO}/cmd/crio`],
      tags: [
        'containers_image_ostree_stub',
        'exclude_graphdriver_btrfs',
        'btrfs_noversion',
        'exclude_graphdriver_devicemapper',
        'containers_image_openpgp',
        'seccomp',
      ],
      cgo: true,
      ldflags: `-s -w -X ${CRIO}/internal/version.buildDate=1970-01-01T00:00:00Z`,
    },
    // pinns (pins namespaces for crio): C, built from the module's pinns/src as its Makefile does.
    { cc: 'pinns', from: 'pinns/src', flags: ['-std=c99', '-Os', '-Wall', '-Wextra', '-static'] },
  ],
  binaries: ['crio', 'pinns'],
};

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
    if (b.cc) {
      const dir = execFileSync('go', ['list', '-m', '-f', '{{.Dir}}', anchor.module], {
        cwd: anchor.modDir,
        encoding: 'utf8',
        env: { ...process.env, GOFLAGS: '-mod=readonly' },
      }).trim();
      const src = join(dir, b.from);
      const files = readdirSync(src)
        .filter((f) => f.endsWith('.c'))
        .map((f) => join(src, f));
      process.stderr.write(`anchors: cc -o ${b.cc} ${b.flags.join(' ')} ${src}/*.c\n`);
      execFileSync('cc', ['-o', join(tmp, b.cc), ...b.flags, ...files], { stdio: ['ignore', 'inherit', 'inherit'] });
      continue;
    }
    const args = ['build', '-trimpath', '-o', `${tmp}/`];
    if (b.tags.length) args.push('-tags', b.tags.join(','));
    args.push('-ldflags', b.ldflags, ...b.packages);
    const started = Date.now();
    process.stderr.write(`anchors: go ${args.join(' ')}\n`);
    execFileSync('nice', ['-n', '10', 'go', ...args], {
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

/** KEY=value lines of .anchors/env, the new ones replacing those of the same key. */
function writeEnv(lines) {
  const file = join(outRoot, 'env');
  const keys = new Set(lines.map((l) => l.split('=')[0]));
  let old = [];
  try {
    old = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l && !keys.has(l.split('=')[0]));
  } catch {
    /* first run */
  }
  writeFileSync(file, `${[...old, ...lines].join('\n')}\n`);
}

function main() {
  const gover = goVersion();
  const dirs = {};
  mkdirSync(outRoot, { recursive: true });
  const crio = process.argv.includes('--crio');
  for (const anchor of crio ? [crioAnchor] : anchors) {
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
  const lines = crio
    ? [`CRIO_DIR=${dirs.crio}`]
    : [`CONTAINERD2_DIR=${dirs.containerd}`, `CRICTL=${join(dirs.crictl, 'crictl')}`];
  writeEnv(lines);
  process.stdout.write(`${lines.join('\n')}\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`anchors: ${err.message.split('\n')[0]}\n`);
  process.exit(1);
}
