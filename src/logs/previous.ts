// `logs --previous` when the earlier container is gone: crictl (and kubelet's log layout,
// <pod log dir>/<container>/<restartCount>.log) name its file by swapping the attempt in the current
// container's log path: the directory part, the earlier attempt, the extension from the last dot.

export function previousLogPath(logPath: string, attempt: number): string {
  const dir = logPath.slice(0, logPath.lastIndexOf('/') + 1);
  const base = logPath.slice(dir.length);
  const dot = base.lastIndexOf('.');
  return `${dir}${attempt}${dot < 0 ? '' : base.slice(dot)}`;
}
