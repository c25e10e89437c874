// Build: generate the CRI codecs from proto/, bundle src/ with esbuild into dist/, write the boot
// loader, and prime V8's code cache so every start skips most compilation.
//
// dist/ is split so that a command reads and compiles only the code it runs:
//   syncpod.cjs        the core: entry, main, the command table with every definition, commander
//   chunk-*.cjs        the project's own code, split at the command table's import() boundary;
//                      a module shared by several commands lives in one chunk (one copy, so
//                      `instanceof SyncpodError` holds across commands)
//   vendor-*.cjs       each heavy package (yaml, chalk, ora, ws, cli-table3) on its own, loaded by
//                      the first require of it
//   *.cjs.cache        V8's code cache for each file (written by the warm-up run below)
// esbuild splits only ESM output, so the bundle is built as ESM and each file is then turned into
// CommonJS (esbuild's transform; import() becomes require): Node's CommonJS loader starts about
// 3 ms faster than its ESM loader and lets boot.cjs hand V8 each file's code cache.
import { build, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nodeRequire = createRequire(import.meta.url);
const finalDist = join(root, 'dist');
// Build into a private directory and swap it in at the end, so a CLI run during a build never
// sees a half-written dist/.
const dist = join(root, `dist.building-${process.pid}`);

/** Heavy packages, each bundled into its own file and required from there. */
const VENDOR = {
  yaml: 'vendor-yaml.cjs',
  chalk: 'vendor-chalk.cjs',
  ora: 'vendor-ora.cjs',
  ws: 'vendor-ws.cjs',
  'cli-table3': 'vendor-cli-table3.cjs',
  '@grpc/grpc-js': 'vendor-grpc.cjs',
};
/**
 * Built-ins a vendor file requires at load time but uses only in runs that never happen on a
 * unix socket: grpc-js's DNS resolver (node:dns) and its compression filter (node:zlib).
 */
const VENDOR_LAZY_BUILTINS = { '@grpc/grpc-js': ['dns', 'zlib'] };

/** Resolves the vendor packages to their files next to the importing file. */
const vendorExternal = {
  name: 'vendor-external',
  setup(b) {
    const names = Object.keys(VENDOR);
    const filter = new RegExp(`^(${names.map((n) => n.replace(/[/@.]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: `./${VENDOR[args.path]}`, external: true }));
  },
};

/**
 * Node built-ins that cost start-up time when loaded but are needed only in some runs: every import
 * of one gets a module of getters (one per export of the real module, listed here at build time)
 * that loads the real module at the first use. node:child_process pulls in net, dgram and streams
 * (about 3 ms) for commander (executable subcommands, which syncpod has none of), the node profile
 * and CNI.
 */
const lazyBuiltins = (names) => ({
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(node:)?(${names.join('|')})$`) }, (args) => {
      const name = args.path.replace(/^node:/, '');
      // The getter module's own require of the real module stays a require.
      return args.namespace === 'lazy-builtin'
        ? { path: `node:${name}`, external: true }
        : { path: name, namespace: 'lazy-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
      const load = `require(${JSON.stringify(`node:${args.path}`)})`;
      const getters = Object.keys(nodeRequire(`node:${args.path}`)).map(
        (key) => `get ${JSON.stringify(key)}() { return ${load}[${JSON.stringify(key)}]; }`,
      );
      return { contents: `module.exports = { ${getters.join(', ')} };`, loader: 'js' };
    });
  },
});

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
};

execFileSync(process.execPath, [join(root, 'scripts', 'gen-proto.mjs')], { stdio: 'inherit' });
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

// 1. vendor files: one CommonJS bundle per package, exporting what require(package) returns (ora
// keeps its own copy of chalk: an ESM package's default export does not survive a CommonJS file).
for (const [pkg, file] of Object.entries(VENDOR)) {
  await build({
    ...common,
    stdin: { contents: `module.exports = require(${JSON.stringify(pkg)});`, resolveDir: root, loader: 'js' },
    outfile: join(dist, file),
    format: 'cjs',
    plugins: VENDOR_LAZY_BUILTINS[pkg] ? [lazyBuiltins(VENDOR_LAZY_BUILTINS[pkg])] : [],
  });
}

// 2. the project: ESM with code splitting, one flat directory (relative imports between files).
// SYNCPOD_BUILD_META=FILE writes esbuild's metafile (which module went into which file).
const project = await build({
  ...common,
  entryPoints: { syncpod: join(root, 'src', 'entry.ts') },
  outdir: dist,
  format: 'esm',
  splitting: true,
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.cjs' },
  plugins: [vendorExternal, lazyBuiltins(['child_process'])],
  metafile: Boolean(process.env.SYNCPOD_BUILD_META),
});
if (process.env.SYNCPOD_BUILD_META)
  writeFileSync(process.env.SYNCPOD_BUILD_META, JSON.stringify(project.metafile, null, 1));

// 3. ESM -> CommonJS, file by file (imports between the files already name the .cjs files).
for (const name of readdirSync(dist)) {
  if (!name.endsWith('.cjs') || name.startsWith('vendor-')) continue;
  const file = join(dist, name);
  const out = await transform(readFileSync(file, 'utf8'), {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    // import() of a chunk becomes a require inside a promise: the CommonJS loader, one copy.
    supported: { 'dynamic-import': false },
  });
  writeFileSync(file, out.code);
}
copyFileSync(join(root, 'scripts', 'boot.cjs'), join(dist, 'boot.cjs'));

// 4. Prime the code cache: run commands that compile the hot paths without needing a runtime.
const env = { ...process.env, SYNCPOD_WRITE_CODE_CACHE: '1', NO_COLOR: '1' };
execFileSync(process.execPath, [join(dist, 'boot.cjs'), '__warm'], { env, stdio: ['ignore', 'ignore', 'inherit'] });

const old = join(root, `dist.old-${process.pid}`);
if (existsSync(finalDist)) renameSync(finalDist, old);
renameSync(dist, finalDist);
rmSync(old, { recursive: true, force: true });
