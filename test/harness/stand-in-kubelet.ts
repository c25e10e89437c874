// A stand-in kubelet for tests: a tiny real C program named `kubelet`, compiled here with the
// machine's cc, that answers `--version` (and counts how often it was asked) and otherwise sleeps.
// It runs in a private PID namespace with its own /proc (unshare --pid --mount-proc), and the CLI
// under test is run inside that namespace (nsenter), so syncpod sees it in /proc as it would see a
// real kubelet, while syncpod runs elsewhere on this machine (other test files, other checkouts)
// do not: the node profile reads only kubelets of its own PID namespace.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SOURCE = `
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--version") == 0) {
      FILE *f = fopen(COUNTER, "a");
      if (f) { fputs("version\\n", f); fclose(f); }
      printf("Kubernetes %s\\n", VERSION);
      return 0;
    }
  }
  for (;;) pause();
}
`;

export interface StandInKubelet {
  /** The kubelet's pid as this (outer) namespace sees it. */
  pid: number;
  /** Path of the compiled binary. */
  binary: string;
  /** How many times `--version` was run. */
  versionCalls(): number;
  /** Argv prefix that runs a command inside the kubelet's PID and mount namespaces. */
  inside: string[];
  stop(): void;
}

/** Compiles the stand-in into `dir/bin/kubelet` (once per dir and version). */
export function compileStandIn(dir: string, version: string): { binary: string; counter: string } {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const counter = path.join(dir, 'version-calls');
  const src = path.join(dir, 'kubelet.c');
  fs.writeFileSync(src, SOURCE);
  const binary = path.join(bin, 'kubelet');
  const cc = spawnSync('cc', ['-O0', `-DVERSION="${version}"`, `-DCOUNTER="${counter}"`, '-o', binary, src], {
    encoding: 'utf8',
  });
  if (cc.status !== 0) throw new Error(`cc failed: ${cc.stderr || cc.error?.message}`);
  return { binary, counter };
}

function childPid(parent: number): number | undefined {
  try {
    const kids = fs
      .readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return kids.find((k) => {
      try {
        return fs.readFileSync(`/proc/${k}/comm`, 'utf8') === 'kubelet\n';
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

/** Starts the stand-in with `args` and working directory `cwd`; resolves once it runs. */
export async function startStandInKubelet(opts: {
  dir: string;
  version: string;
  args: string[];
  cwd: string;
}): Promise<StandInKubelet> {
  const { binary, counter } = compileStandIn(opts.dir, opts.version);
  fs.rmSync(counter, { force: true });
  // --kill-child: when unshare dies the kubelet (pid 1 of the namespace) dies, and so the namespace.
  const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', '--kill-child', binary, ...opts.args], {
    cwd: opts.cwd,
    stdio: 'ignore',
  });
  running.add(child);
  let pid: number | undefined;
  // Until it runs, bounded at 60 s (it was 200 polls, about 5 s: a bound a loaded machine could reach).
  for (const until = Date.now() + 60_000; pid === undefined && Date.now() < until; ) {
    if (child.exitCode !== null) throw new Error(`unshare exited with ${child.exitCode}`);
    pid = childPid(child.pid!);
    if (pid === undefined) await new Promise((r) => setTimeout(r, 25));
  }
  if (pid === undefined) {
    child.kill('SIGKILL');
    throw new Error('the stand-in kubelet did not start');
  }
  const kubeletPid = pid;
  return {
    pid: kubeletPid,
    binary,
    versionCalls: () =>
      fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0,
    inside: ['nsenter', `--target=${kubeletPid}`, '--pid', '--mount', '--'],
    stop() {
      try {
        process.kill(kubeletPid, 'SIGKILL');
      } catch {
        // already gone
      }
      child.kill('SIGKILL');
      running.delete(child);
    },
  };
}
