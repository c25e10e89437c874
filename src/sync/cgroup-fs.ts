// Destroying a pod cgroup on the node, as kubelet's pod container manager does (kubelet 1.29–1.37
// cm/pod_container_manager_linux.go Destroy): every process in the cgroup or a cgroup below it
// (cgroup.procs of each directory, every hierarchy) is sent SIGKILL, up to five rounds; then each
// directory is removed children first, an EBUSY retried with a doubling wait while killed
// processes exit (libcontainer's RemovePath). A directory already gone is fine.
import * as fs from 'node:fs';
import * as path from 'node:path';

const KILL_ROUNDS = 5;
/** rmdir's EBUSY retries: libcontainer waits 1 ms doubling, 10 times; a loaded node gets 4 more. */
const RMDIR_TRIES = 14;

function procsBelow(dir: string): number[] {
  const out: number[] = [];
  const walk = (d: string): void => {
    let text = '';
    try {
      text = fs.readFileSync(path.join(d, 'cgroup.procs'), 'utf8');
    } catch {
      /* gone, or no procs file */
    }
    for (const l of text.split('\n')) if (/^\d+$/.test(l)) out.push(Number(l));
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory()) walk(path.join(d, e.name));
  };
  walk(dir);
  return out;
}

/** SIGKILL to every process charged to the cgroups; returns the pids killed (an exited one counts). */
function killProcesses(dirs: string[]): number[] {
  const pids = [...new Set(dirs.flatMap(procsBelow))].sort((a, b) => a - b);
  const killed = new Set<number>();
  let failed: string[] = [];
  for (let round = 0; round < KILL_ROUNDS; round++) {
    failed = [];
    for (const pid of pids) {
      if (killed.has(pid)) continue;
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ESRCH') killed.add(pid);
        else failed.push(`${pid}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      }
    }
    if (failed.length === 0) return [...killed];
  }
  throw new Error(`could not kill every process in the pod cgroup (${failed.join(', ')})`);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function removeCgroupDir(dir: string): Promise<void> {
  try {
    fs.rmdirSync(dir);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
  }
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const e of entries) if (e.isDirectory()) await removeCgroupDir(path.join(dir, e.name));
  for (let i = 0, wait = 1; ; i++, wait *= 2) {
    try {
      fs.rmdirSync(dir);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code !== 'EBUSY' || i >= RMDIR_TRIES) throw err;
    }
    await sleep(wait);
  }
}

/**
 * Kills what is left in the pod cgroup's directories and removes them (every hierarchy); returns
 * the pids killed. Throws naming what failed (a process that would not die, a busy directory).
 */
export async function destroyCgroup(dirs: string[]): Promise<number[]> {
  const killed = killProcesses(dirs);
  const failed: string[] = [];
  for (const d of dirs) {
    try {
      await removeCgroupDir(d);
    } catch (err) {
      failed.push(`${d}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }
  if (failed.length) throw new Error(`could not remove ${failed.join(', ')}`);
  return killed;
}
