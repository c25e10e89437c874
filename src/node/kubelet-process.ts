// Finds the running kubelet in /proc and reads what it was started with. Only a kubelet in our own
// PID namespace counts: a kubelet in another one (a kind node, a nested container) runs another
// node. A kubelet that cannot be read (permissions, or it exits while being read) is reported as
// such, never thrown.
import * as fs from 'node:fs';

export interface KubeletProcess {
  pid: number;
  /** /proc/PID/exe's target (may end in " (deleted)" after an in-place upgrade). */
  exe: string;
  args: string[];
  cwd: string;
  /** '' when the kubelet shares our mount namespace, else /proc/PID/root. */
  rootPrefix: string;
}

export type FindKubeletResult =
  | { kind: 'none' }
  | { kind: 'found'; process: KubeletProcess; others: number[] }
  | { kind: 'unreadable'; pid: number; why: string };

class Gone extends Error {}

function problem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (err instanceof Gone || code === 'ENOENT' || code === 'ESRCH') return 'it exited while being read';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied (run as root)';
  return (err as Error).message;
}

function read(path: string): string {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ESRCH')
      throw new Gone();
    throw err;
  }
}

function link(path: string): string {
  try {
    return fs.readlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ESRCH')
      throw new Gone();
    throw err;
  }
}

/** Start time in clock ticks (field 22 of /proc/PID/stat), to prefer the oldest kubelet. */
function startTime(proc: string, pid: number): number {
  const stat = read(`${proc}/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[19]);
}

const COMM = Buffer.alloc(16);

/** Whether /proc/PID/comm is "kubelet" (open + one read + close: /proc files report size 0). */
function isKubelet(proc: string, pid: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(`${proc}/${pid}/comm`, 'r');
    const n = fs.readSync(fd, COMM, 0, COMM.length, 0);
    return n === 8 && COMM.toString('latin1', 0, 8) === 'kubelet\n';
  } catch {
    return false; // exited between listing and reading
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Where systemd keeps kubelet.service's processes (cgroup v2, then v1): one read instead of a scan. */
const SYSTEMD_UNIT_PROCS = [
  '/sys/fs/cgroup/system.slice/kubelet.service/cgroup.procs',
  '/sys/fs/cgroup/systemd/system.slice/kubelet.service/cgroup.procs',
];

function candidatePids(proc: string): number[] {
  for (const file of SYSTEMD_UNIT_PROCS) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'latin1');
    } catch {
      continue;
    }
    const pids = text
      .split('\n')
      .filter((p) => p !== '' && isKubelet(proc, p))
      .map(Number);
    if (pids.length > 0) return pids;
  }
  const out: number[] = [];
  for (const name of fs.readdirSync(proc)) {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57 && isKubelet(proc, name)) out.push(Number(name));
  }
  return out;
}

/**
 * The kubelet: a process whose comm is "kubelet" in our PID namespace, found through systemd's
 * kubelet.service cgroup when there is one, else by scanning /proc; the oldest when several run.
 */
export function findKubelet(proc = '/proc'): FindKubeletResult {
  const candidates = candidatePids(proc);
  if (candidates.length === 0) return { kind: 'none' };
  const ours = fs.readlinkSync(`${proc}/self/ns/pid`);
  const mine: Array<{ pid: number; start: number }> = [];
  let lastProblem: { pid: number; why: string } | undefined;
  for (const pid of candidates) {
    try {
      if (link(`${proc}/${pid}/ns/pid`) !== ours) continue;
      mine.push({ pid, start: startTime(proc, pid) });
    } catch (err) {
      if (err instanceof Gone) continue;
      lastProblem = { pid, why: problem(err) };
    }
  }
  if (mine.length === 0) return lastProblem ? { kind: 'unreadable', ...lastProblem } : { kind: 'none' };
  mine.sort((a, b) => a.start - b.start || a.pid - b.pid);
  const pid = mine[0].pid;
  try {
    const cmdline = read(`${proc}/${pid}/cmdline`);
    if (cmdline === '') throw new Gone();
    const argv = cmdline.split('\0');
    if (argv[argv.length - 1] === '') argv.pop();
    const exe = link(`${proc}/${pid}/exe`);
    const cwd = link(`${proc}/${pid}/cwd`);
    const sameMounts = link(`${proc}/${pid}/ns/mnt`) === fs.readlinkSync(`${proc}/self/ns/mnt`);
    return {
      kind: 'found',
      process: { pid, exe, args: argv.slice(1), cwd, rootPrefix: sameMounts ? '' : `${proc}/${pid}/root` },
      others: mine.slice(1).map((m) => m.pid),
    };
  } catch (err) {
    return { kind: 'unreadable', pid, why: problem(err) };
  }
}
