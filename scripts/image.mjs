// `npm run image`: dist/syncpod-image.tar, an OCI image archive built offline from this machine's
// files — no base image, no registry. Two layers:
//   runtime  this Node binary and the shared libraries ldd lists for it (plus the dynamic loader),
//            nsenter and ip with theirs (net-check reads a sandbox's interfaces through them),
//            /tmp and /host (where deploy/ mounts the node's root);
//   app      syncpod's bundle and code cache under /opt/syncpod, /usr/local/bin/syncpod.
// The entrypoint is `syncpod`; the tag is package.json's version. Layers are gzip-compressed tars
// with fixed owners and times (SOURCE_DATE_EPOCH, default 0), entries sorted, so the same inputs
// give the same digests. The archive holds the OCI layout (oci-layout, index.json, blobs/) and a
// Docker manifest.json, so `ctr images import`, `docker load` and `podman load` all read it.
// CNI plugins are not shipped: with --host-root the node's own plugins run, as the runtime's would.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(join(root, 'package.json'), 'utf8'));
const version = pkg.version;
const imageName = `docker.io/library/syncpod:${version}`;
const epoch = Number(process.env.SOURCE_DATE_EPOCH ?? 0);
const mtime = new Date(epoch * 1000);
const out = join(root, 'dist', 'syncpod-image.tar');
const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
if (!arch) fail(`no OCI architecture name for ${process.arch}`);
for (const f of ['boot.cjs', 'syncpod.cjs', 'syncpod.cjs.cache']) {
  if (!fs.existsSync(join(root, 'dist', f))) fail(`dist/${f} is missing: run npm run build first`);
}
// The bundle's files (scripts/build.mjs): the boot loader, the core, chunks, vendor files, caches.
const bundleFiles = fs
  .readdirSync(join(root, 'dist'))
  .filter((f) => /\.cjs(\.cache)?$/.test(f))
  .sort();

function fail(msg) {
  process.stderr.write(`image: ${msg}\n`);
  process.exit(1);
}

/** The shared objects ldd lists for `file`, absolute paths as the loader looks them up. */
function sharedLibraries(file) {
  const text = execFileSync('ldd', [file], { encoding: 'utf8' });
  const libs = [];
  for (const line of text.split('\n')) {
    const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m) libs.push(m[1]);
  }
  return libs;
}

function onPath(name) {
  for (const d of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/sbin'])) {
    const p = join(d, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {}
  }
  fail(`${name} not found on PATH (the image ships it for net-check)`);
}

/**
 * Lays out a layer in a staging directory (image path -> host file, copied so symlinks and
 * modes do not leak in), then writes a deterministic tar and returns its bytes.
 */
function layer(name, files, dirs = {}) {
  const stage = fs.mkdtempSync(join(root, 'dist', `.image-${name}-`));
  try {
    const entries = new Set();
    const addParents = (p) => {
      for (let d = dirname(p); d !== '/' && d !== '.'; d = dirname(d)) entries.add(d.slice(1));
    };
    for (const [dir, mode] of Object.entries(dirs)) {
      fs.mkdirSync(join(stage, dir), { recursive: true });
      fs.chmodSync(join(stage, dir), mode);
      entries.add(dir.slice(1));
      addParents(dir);
    }
    for (const [imagePath, source] of Object.entries(files)) {
      const dest = join(stage, imagePath);
      fs.mkdirSync(dirname(dest), { recursive: true });
      if (typeof source === 'string') fs.copyFileSync(source, dest);
      else fs.writeFileSync(dest, source.content);
      fs.chmodSync(dest, typeof source === 'string' ? fs.statSync(source).mode & 0o7777 : source.mode);
      entries.add(imagePath.slice(1));
      addParents(imagePath);
    }
    for (const e of entries) {
      const st = fs.statSync(join(stage, e));
      if (st.isDirectory() && !Object.keys(dirs).includes(`/${e}`)) fs.chmodSync(join(stage, e), 0o755);
    }
    const list = [...entries].sort();
    const tarFile = `${stage}.tar`;
    // Owner root, fixed times, modes as staged (tar's `portable` would drop /tmp's o+w).
    const normalise = (e) => {
      Object.assign(e.stat, { uid: 0, gid: 0, atime: mtime, ctime: mtime, mtime });
      e.myuid = -1;
    };
    tar.create(
      { cwd: stage, file: tarFile, sync: true, mtime, noDirRecurse: true, noPax: true, onWriteEntry: normalise },
      list,
    );
    const bytes = fs.readFileSync(tarFile);
    fs.rmSync(tarFile);
    return bytes;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

const sha256 = (b) => createHash('sha256').update(b).digest('hex');

// --- runtime layer ---------------------------------------------------------------------------
const nodeBinary = fs.realpathSync(process.execPath);
const tools = { '/usr/bin/nsenter': onPath('nsenter'), '/usr/sbin/ip': onPath('ip') };
const runtimeFiles = { '/usr/local/bin/node': nodeBinary };
for (const [to, from] of Object.entries(tools)) runtimeFiles[to] = fs.realpathSync(from);
for (const bin of [nodeBinary, ...Object.values(tools)]) {
  for (const lib of sharedLibraries(bin)) runtimeFiles[lib] = fs.realpathSync(lib);
}
const runtime = layer('runtime', runtimeFiles, { '/tmp': 0o1777, '/host': 0o755 });

// --- app layer -------------------------------------------------------------------------------
const launcher = "#!/usr/local/bin/node --\n'use strict';\nrequire('/opt/syncpod/dist/boot.cjs');\n";
const app = layer('app', {
  ...Object.fromEntries(bundleFiles.map((f) => [`/opt/syncpod/dist/${f}`, join(root, 'dist', f)])),
  '/opt/syncpod/package.json': { content: JSON.stringify({ name: pkg.name, version }, null, 2) + '\n', mode: 0o644 },
  '/usr/local/bin/syncpod': { content: launcher, mode: 0o755 },
});

// --- blobs, config, manifest, index ----------------------------------------------------------
const blobs = new Map();
const blob = (bytes) => {
  const hex = sha256(bytes);
  blobs.set(hex, bytes);
  return { digest: `sha256:${hex}`, size: bytes.length, hex };
};
const layers = [
  { name: 'runtime', raw: runtime, what: `node ${process.version}, its shared libraries, nsenter, ip` },
  { name: 'app', raw: app, what: `syncpod ${version}` },
].map((l) => ({ ...l, gz: blob(gzipSync(l.raw, { level: 6 })), diffId: `sha256:${sha256(l.raw)}` }));
const created = mtime.toISOString();
const config = {
  created,
  architecture: arch,
  os: 'linux',
  config: {
    Entrypoint: ['syncpod'],
    Env: ['PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    WorkingDir: '/',
    Labels: {
      'org.opencontainers.image.title': 'syncpod',
      'org.opencontainers.image.version': version,
      'org.opencontainers.image.description': pkg.description,
      'org.opencontainers.image.licenses': pkg.license,
    },
  },
  rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
  history: layers.map((l) => ({ created, created_by: `syncpod scripts/image.mjs: ${l.what}` })),
};
const configBlob = blob(Buffer.from(JSON.stringify(config)));
const manifest = {
  schemaVersion: 2,
  mediaType: 'application/vnd.oci.image.manifest.v1+json',
  config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: configBlob.digest, size: configBlob.size },
  layers: layers.map((l) => ({
    mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip',
    digest: l.gz.digest,
    size: l.gz.size,
  })),
};
const manifestBlob = blob(Buffer.from(JSON.stringify(manifest)));
const index = {
  schemaVersion: 2,
  mediaType: 'application/vnd.oci.image.index.v1+json',
  manifests: [
    {
      mediaType: manifest.mediaType,
      digest: manifestBlob.digest,
      size: manifestBlob.size,
      platform: { architecture: arch, os: 'linux' },
      annotations: { 'io.containerd.image.name': imageName, 'org.opencontainers.image.ref.name': version },
    },
  ],
};
const dockerManifest = [
  {
    Config: `blobs/sha256/${configBlob.hex}`,
    RepoTags: [`syncpod:${version}`],
    Layers: layers.map((l) => `blobs/sha256/${l.gz.hex}`),
  },
];

const files = {
  '/oci-layout': { content: JSON.stringify({ imageLayoutVersion: '1.0.0' }), mode: 0o644 },
  '/index.json': { content: JSON.stringify(index), mode: 0o644 },
  '/manifest.json': { content: JSON.stringify(dockerManifest), mode: 0o644 },
};
for (const [hex, bytes] of blobs) files[`/blobs/sha256/${hex}`] = { content: bytes, mode: 0o644 };
const archive = layer('archive', files);
fs.writeFileSync(`${out}.tmp`, archive);
fs.renameSync(`${out}.tmp`, out);
const mb = (n) => (n / 1e6).toFixed(1);
process.stderr.write(
  `image: ${imageName} -> dist/syncpod-image.tar (${mb(archive.length)} MB; layers ${layers.map((l) => `${l.name} ${mb(l.gz.size)} MB`).join(', ')})\n`,
);
