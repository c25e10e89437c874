// What the manifest layer hands to the rest of syncpod.

import type { Pod } from '../kubelet/api-types';

export interface PodSource {
  /** The file as the user named it; `<stdin>` for `-`. */
  file: string;
  /** 1-based index of the YAML document in that file. */
  document: number;
  /** What the pod was taken from, e.g. `Pod/web`, `Deployment/web: pod template`, `List item 2: Pod/web`. */
  from: string;
  /** Field path of the pod's spec inside the document (`spec`, `spec.template.spec`, `items[1].spec`). */
  specPath: string;
  /** Facts an operator should know about the selection (e.g. where the pod name came from). */
  notes: string[];
}

export interface LoadedPod {
  /** The pod with API-server defaults applied (no admission mutations), validated. */
  pod: Pod;
  source: PodSource;
}
