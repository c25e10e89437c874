// `ps`: crictl's table (CONTAINER, IMAGE, CREATED, STATE, NAME, ATTEMPT, POD ID, POD, NAMESPACE),
// -q and -o json|yaml.

import type { Container, ContainerState } from '../cri/types';
import type { Colours } from './colour';
import { formatEnvelope, formatQuiet, type ListViewOptions } from './list-output';
import { crictlTable } from './table';
import { timeAgo, truncateId } from './text';

export const CONTAINER_COLUMNS = [
  'CONTAINER',
  'IMAGE',
  'CREATED',
  'STATE',
  'NAME',
  'ATTEMPT',
  'POD ID',
  'POD',
  'NAMESPACE',
] as const;

const POD_NAME_LABEL = 'io.kubernetes.pod.name';
const POD_NAMESPACE_LABEL = 'io.kubernetes.pod.namespace';

/** Table names of container states. */
export function containerStateName(state: ContainerState): string {
  switch (state) {
    case 'CONTAINER_CREATED':
      return 'Created';
    case 'CONTAINER_RUNNING':
      return 'Running';
    case 'CONTAINER_EXITED':
      return 'Exited';
    case 'CONTAINER_UNKNOWN':
      return 'Unknown';
    default:
      return String(state);
  }
}

function stateCell(state: ContainerState, colours: Colours): string {
  const paint =
    state === 'CONTAINER_RUNNING' ? colours.good : state === 'CONTAINER_EXITED' ? colours.bad : colours.pending;
  return paint(containerStateName(state));
}

// An OCI digest as go-digest parses it: algorithm ":" encoded, with sha256/384/512 hex lengths checked.
const DIGEST = /^([a-z0-9]+(?:[.+_-][a-z0-9]+)*):([a-zA-Z0-9=_-]+)$/;
const HEX_LENGTH: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

/**
 * The IMAGE cell: kubelet stores the image id there, so a valid digest is shortened to 13
 * characters after "algorithm:"; anything else is shown as is.
 */
export function shortImage(image: string): string {
  const m = DIGEST.exec(image);
  if (!m) return image;
  const want = HEX_LENGTH[m[1]];
  if (want === undefined || m[2].length !== want || !/^[a-f0-9]+$/.test(m[2])) return image;
  return truncateId(image, `${m[1]}:`);
}

export interface ContainerViewOptions extends ListViewOptions {
  /** -r / --resolve-image-path: the caller's map from image reference to its first repo tag. */
  repoImageOf?: (image: string) => string;
}

/** Renders containers (already filtered and ordered) as crictl prints them to stdout. */
export function formatContainers(containers: readonly Container[], opts: ContainerViewOptions): string {
  if (opts.output !== 'table') {
    return formatEnvelope(opts.output, 'ListContainersResponse', { containers }, opts.toJSON);
  }
  if (opts.quiet) return formatQuiet(containers.map((c) => c.id));
  const rows: string[][] = [CONTAINER_COLUMNS.map((name) => opts.colours.header(name))];
  for (const c of containers) {
    let image = c.image?.image ?? '';
    if (!opts.noTrunc) image = shortImage(image);
    if (opts.repoImageOf) image = opts.repoImageOf(image);
    rows.push([
      opts.noTrunc ? c.id : truncateId(c.id),
      image,
      timeAgo(c.createdAt, opts.nowNs),
      stateCell(c.state, opts.colours),
      c.metadata?.name ?? '',
      String(c.metadata?.attempt ?? 0),
      opts.noTrunc ? c.podSandboxId : truncateId(c.podSandboxId),
      c.labels?.[POD_NAME_LABEL] ?? 'unknown',
      c.labels?.[POD_NAMESPACE_LABEL] ?? 'unknown',
    ]);
  }
  return crictlTable(rows);
}
