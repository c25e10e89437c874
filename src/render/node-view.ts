// `syncpod node`: the node profile as a table (one row per setting: value and where it came from),
// or the same data as JSON/YAML. The table shows nothing the JSON lacks; VALUE and SOURCE wrap to
// the width (never cut), the lines above it too.
import type { ConfigValue, ContainerdConfigRead } from '../node/containerd-config';
import { crioOrigin, type CrioConfigRead, type CrioValue } from '../node/crio-config';
import type { NodeProfile, Sourced } from '../node/types';
import { DEFAULT_TABLE_WIDTH, wrapText, wrappedTable } from './wrapped-table';

function show(v: unknown): string {
  if (Array.isArray(v)) return v.length === 0 ? '<none>' : v.join(',');
  if (v === '') return '""';
  return String(v);
}

function origin(s: Sourced<unknown>): string {
  return s.from ? `${s.source} (${s.from})` : s.source;
}

/** Setting rows in a fixed order; feature gates last, sorted by name. */
export function nodeProfileRows(p: NodeProfile): Array<[string, Sourced<unknown>]> {
  const rows: Array<[string, Sourced<unknown>]> = [
    ['kubeletVersion', p.kubeletVersion],
    ['cgroupDriver', p.cgroupDriver],
    ['cgroupRoot', p.cgroupRoot],
    ['cgroupsPerQOS', p.cgroupsPerQOS],
    ['clusterDNS', p.clusterDNS],
    ['allowedUnsafeSysctls', p.allowedUnsafeSysctls],
    ['clusterDomain', p.clusterDomain],
    ['resolvConf', p.resolvConf],
    ['podLogsDir', p.podLogsDir],
    ['rootDir', p.rootDir],
    ['staticPodPath', p.staticPodPath],
    ['nodeName', p.nodeName],
    ['runtimeEndpoint', p.runtimeEndpoint],
    ['imageEndpoint', p.imageEndpoint],
  ];
  for (const [name, s] of Object.entries(p.featureGates)) rows.push([`featureGates.${name}`, s]);
  return rows;
}

export function renderNodeProfile(p: NodeProfile, width: number = DEFAULT_TABLE_WIDTH): string {
  const head: string[] = [];
  if (p.kubelet) {
    head.push(
      `Kubelet: pid ${p.kubelet.pid}, ${p.kubelet.exe}${p.kubelet.versionOutput ? ` (${p.kubelet.versionOutput})` : ''}`,
    );
    head.push(
      `Config: ${p.kubelet.configFile ?? '<none>'}${p.kubelet.configDir ? `, drop-ins from ${p.kubelet.configDir}: ${p.kubelet.dropIns.length === 0 ? '<none>' : p.kubelet.dropIns.join(', ')}` : ''}`,
    );
  } else {
    head.push(p.detected ? 'Kubelet: detected' : 'Kubelet: none read (syncpod defaults)');
  }
  if (p.runtimeCgroupDriver) {
    const r = p.runtimeCgroupDriver;
    head.push(
      `Runtime cgroup driver: ${r.answered ? `${r.cgroupDriver} (RuntimeConfig on ${r.endpoint})` : `not told (${r.why})`}`,
    );
  }
  if (p.crioConfig) head.push(...crioConfigLines(p.crioConfig));
  else if (p.containerdConfig) head.push(...containerdConfigLines(p.containerdConfig));
  const rows = nodeProfileRows(p).map(([name, s]) => [name, show(s.value), origin(s)]);
  return (
    [
      ...head.flatMap((l) => wrapText(l, width, '  ')),
      '',
      wrappedTable(['SETTING', 'VALUE', 'SOURCE'], rows, { width, wrap: [1, 2] }),
    ].join('\n') + '\n'
  );
}

/** containerd's configuration file: one line naming it, then one per setting read from it. */
export function containerdConfigLines(read: ContainerdConfigRead): string[] {
  if (!read.found) return [`containerd config: not read (${read.why})`];
  const c = read.config;
  const [main, ...imports] = c.files;
  const where = (v: ConfigValue<unknown>) =>
    v.file ? `${v.key}${v.file !== main ? ` in ${v.file}` : ''}` : `containerd's default, ${v.key} not set`;
  const line = (name: string, v: ConfigValue<unknown>) => `  ${name}: ${show(v.value)} (${where(v)})`;
  return [
    `containerd config: ${main} (version ${c.version}${imports.length ? `, imports ${imports.join(', ')}` : ''}; ${read.via})`,
    line(`cgroup driver of runtime ${c.runtimeName.value}`, c.cgroupDriver),
    line('CNI bin dirs', c.cniBinDirs),
    line('CNI conf dir', c.cniConfDir),
    line('restrict_oom_score_adj', c.restrictOOMScoreAdj),
    c.sandboxImage
      ? line('sandbox image', c.sandboxImage)
      : "  sandbox image: not set (the release's built-in default)",
  ];
}

/** CRI-O's configuration: one line naming its files, then one per setting with where it came from. */
export function crioConfigLines(read: CrioConfigRead): string[] {
  if (!read.found) return [`CRI-O config: not read (${read.why})`];
  const c = read.config;
  const main =
    c.mainFile.path === ''
      ? 'no main file (--config "")'
      : c.mainFile.read
        ? c.mainFile.path
        : `${c.mainFile.path} (absent)`;
  const dropIns = c.files.slice(c.mainFile.read ? 1 : 0);
  const where = (v: CrioValue<unknown>) =>
    v.flag || v.env
      ? crioOrigin(v)
      : v.file
        ? `${v.key}${v.file !== c.mainFile.path ? ` in ${v.file}` : ''}`
        : `CRI-O's default, ${v.key} not set`;
  const line = (name: string, v: CrioValue<unknown>) => `  ${name}: ${show(v.value)} (${where(v)})`;
  return [
    `CRI-O config: ${main}, drop-ins from ${c.dropInDir}: ${dropIns.length ? dropIns.join(', ') : '<none>'} (${read.via})`,
    line('cgroup manager', c.cgroupManager),
    line('CNI plugin dirs', c.pluginDirs),
    line('CNI conf dir', c.networkDir),
    c.pauseImage ? line('pause image', c.pauseImage) : "  pause image: not set (the release's built-in default)",
    line('listen', c.listen),
  ];
}
