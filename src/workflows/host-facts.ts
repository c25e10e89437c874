// What kubelet reads from the host it runs on, behind one interface so that the flows that need
// node facts (node settings, a pod's uid and node name) take them as a dependency: `localHost`
// reads this machine, tests pass their own facts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { SyncpodError, errorLine } from '../errors';
import { hugePageUnitSize } from '../kubelet/resources';
import { HUGEPAGES_DIR, readHugePageSizes } from '../sync/node-fs';
import { onHost } from '../config/host-root';
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
    hugePageSizes() {
      try {
        return readHugePageSizes(at(HUGEPAGES_DIR), hugePageUnitSize);
      } catch (err) {
        throw new SyncpodError(`${HUGEPAGES_DIR}: ${errorLine(err)}`);
      }
    },
  };
}
