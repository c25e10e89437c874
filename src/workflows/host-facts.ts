// What kubelet reads from the host it runs on, behind one interface so that the flows that need
// node facts (node settings, a pod's uid and node name) take them as a dependency: `localHost`
// reads this machine, tests pass their own facts.
import type { VolumeDataReader } from './volume-data';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { SyncpodError, errorLine } from '../errors';
import { hugePageUnitSize } from '../kubelet/resources';
import { HUGEPAGES_DIR, readHugePageSizes } from '../sync/node-fs';
import { onHost } from '../config/host-root';
import type { DirEntry } from '../kubelet/static-pods';
import { inputText } from '../utf8';
import { readInputFileSync } from '../read-input';

export interface HostFacts {
  /** A node file's text (resolv.conf, /etc/hosts); throws (with the errno code) when it cannot be read. */
  readFile(path: string): string;
  /** One of syncpod's own inputs (--env-file): never under --host-root. Default: readFile. */
  readOwnFile?(path: string): string;
  /** A node path as seen from here (under --host-root). Default: the path itself. */
  nodePath?(path: string): string;
  /** cgroup v2 when the unified hierarchy is mounted at /sys/fs/cgroup. */
  cgroupVersion(): 1 | 2;
  hostname(): string;
  /** The node's addresses as kubelet reports them: the first IPv4 and first global IPv6 of the interfaces, by name. */
  nodeIPs(): string[];
  cpuCount(): number;
  memoryBytes(): number;
  /** The huge page sizes the host has, in /sys/kernel/mm/hugepages order. */
  hugePageSizes(): string[];
  /** The running kernel's release (uname -r), for tmpfs noswap. Default: unknown (no noswap). */
  kernelRelease?(): string;
  /** Text of /proc/self/uid_map (inside a user namespace tmpfs takes no noswap). Default: unknown. */
  uidMap?(): string;
}

function interfaceIPs(): string[] {
  const v4: string[] = [];
  const v6: string[] = [];
  for (const [, addrs] of Object.entries(os.networkInterfaces()).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const a of addrs ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv4') v4.push(a.address);
      else if (!a.address.startsWith('fe80')) v6.push(a.address);
    }
  }
  return [...v4.slice(0, 1), ...v6.slice(0, 1)];
}

/** This machine. */
export const localHost: HostFacts = hostUnder('/');

/** The node whose root filesystem is seen at `root` (--host-root): its files, /sys, huge pages read under it. */
export function hostUnder(root: string): HostFacts {
  const at = (p: string): string => onHost(root, p);
  return {
    readFile: (path) => readInputFileSync(at(path), path).toString('utf8'),
    readOwnFile: (path) => readInputFileSync(path).toString('utf8'),
    nodePath: at,
    cgroupVersion: () => (fs.existsSync(at('/sys/fs/cgroup/cgroup.controllers')) ? 2 : 1),
    hostname: () => os.hostname(),
    nodeIPs: interfaceIPs,
    cpuCount: () => os.cpus().length,
    memoryBytes: () => os.totalmem(),
    kernelRelease: () => os.release(),
    uidMap: () => {
      try {
        return fs.readFileSync('/proc/self/uid_map', 'utf8');
      } catch {
        return '';
      }
    },
    hugePageSizes() {
      try {
        return readHugePageSizes(at(HUGEPAGES_DIR), hugePageUnitSize);
      } catch (err) {
        throw new SyncpodError(`${HUGEPAGES_DIR}: ${errorLine(err)}`);
      }
    },
  };
}

/** syncpod's own inputs for volume data (--configmap/--secret DIRs, token files): never under --host-root. */
export const localVolumeDataReader: VolumeDataReader = {
  readDir: (dir) => fs.readdirSync(dir, { withFileTypes: true }).map((d) => ({ name: d.name, regular: d.isFile() })),
  readFile: (path) => readInputFileSync(path),
};

/** A directory's entries (symlinks followed) for the static pod path; undefined when it does not exist. */
export function readNodeDir(path: string): DirEntry[] | undefined {
  try {
    return fs.readdirSync(path, { withFileTypes: true }).map((d) => {
      let kind: DirEntry['kind'] = d.isFile() ? 'file' : d.isDirectory() ? 'dir' : 'other';
      if (d.isSymbolicLink()) {
        try {
          const st = fs.statSync(`${path}/${d.name}`);
          kind = st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
        } catch {
          kind = 'other';
        }
      }
      return { name: d.name, kind };
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new SyncpodError(`staticPodPath ${path}: ${errorLine(err)}`);
  }
}

/** A manifest file's text; the error names the cause in a few words (the caller names the file). */
export function readInputFile(path: string): string {
  try {
    return inputText(readInputFileSync(path), path);
  } catch (err) {
    if (err instanceof SyncpodError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : errorLine(err),
    );
  }
}
