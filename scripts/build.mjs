// Build: generate the CRI codecs from proto/, bundle src/ with esbuild into dist/syncpod.cjs,
// write the boot loader, and prime V8's code cache so every start skips most compilation.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const finalDist = join(root, 'dist');
// Build into a private directory and swap it in at the end, so a CLI run during a build never
// sees a half-written dist/.
const dist = join(root, `dist.building-${process.pid}`);

execFileSync(process.execPath, [join(root, 'scripts', 'gen-proto.mjs')], { stdio: 'inherit' });
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: [join(root, 'src', 'entry.ts')],
  outfile: join(dist, 'syncpod.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  keepNames: false,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(root, 'scripts', 'boot.cjs'), join(dist, 'boot.cjs'));

// Prime the code cache: run commands that compile the hot paths without needing a runtime.
const env = { ...process.env, SYNCPOD_WRITE_CODE_CACHE: '1', NO_COLOR: '1' };
execFileSync(process.execPath, [join(dist, 'boot.cjs'), '__warm'], { env, stdio: ['ignore', 'ignore', 'inherit'] });

const old = join(root, `dist.old-${process.pid}`);
if (existsSync(finalDist)) renameSync(finalDist, old);
renameSync(dist, finalDist);
rmSync(old, { recursive: true, force: true });
