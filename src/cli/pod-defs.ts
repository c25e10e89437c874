// Definitions of the pod commands: plan, sync, the step commands, the network steps, completion.
// The table is src/cli/commands.ts.
import {
  collect,
  desiredPodOptions,
  stringSlice,
  int,
  nodeOptions,
  volumeOptions,
  netOptions,
  OUTPUT_LIST,
  type Cmd,
  type OptionsOf,
} from './command-flags';

// ---------------------------------------------------------------------------------------------
// plan and sync

export const planDef = (c: Cmd) =>
  volumeOptions(
    nodeOptions(
      c
        .description("Compute, changing nothing, what kubelet's SyncPod would do for each pod in the manifests")
        .argument(
          '[file...]',
          "pod manifests (YAML or JSON; Pod, a workload's pod template, List; '-' for stdin); with --node, more desired pods (e.g. kubectl get pods -o yaml)",
        )
        .option(
          '-o, --output <format>',
          'output format: table, json or yaml; with --node also npd (node-problem-detector plugin: one line, exit 0 OK, 1 NonOK, 2 Unknown)',
          'table',
        )
        .option('--detailed-exitcode', 'exit 0 when nothing would change, 2 when changes are pending, 1 on error')
        .option(
          '-v, --verbose',
          'with the table: each assumption with its detail (-o json|yaml always have it), every pod without changes on its own line',
        )
        .option(
          '--node',
          'plan every pod this node should run (static pods, given files, the Pods API) and report orphans',
        )
        .option('--static-pod-path <dir>', "kubelet's staticPodPath (with --node)")
        .option(
          '--pods-api-socket <path>',
          "kubelet's Pods API socket (with --node; default <root>/pods-api/pods-api.sock, read when present; none: skip)",
        )
        .option(
          '--every <duration>',
          'with --node: plan again every DURATION (e.g. 10m) until terminated, one JSON document per line with -o json (for DaemonSets)',
        )
        .option(
          '--feature-gates <gates>',
          'kubelet feature gates NAME=true|false,..., as kubelet takes them (every gate syncpod consults; see syncpod-plan(1))',
        )
        .option(
          '--liveness-failed <container>',
          "assume kubelet's prober holds a liveness Failure for this container (repeatable)",
          collect,
          [] as string[],
        )
        .option(
          '--startup-failed <container>',
          "assume kubelet's prober holds a startup Failure for this container (repeatable)",
          collect,
          [] as string[],
        )
        .option(
          '--startup-succeeded <container>',
          "assume kubelet's prober holds a startup Success for this container (repeatable; a pod status dump's started: true says the same)",
          collect,
          [] as string[],
        )
        .option(
          '--upgrade-to <version>',
          "preview an in-place kubelet upgrade: which running containers the target kubelet's first sync would restart, and why",
        )
        .option(
          '-l, --selector <selector>',
          "only the pods whose labels match (kubectl's syntax: k=v, k!=v, k in (a,b), k, !k)",
        ),
    ),
  );
export type PlanOptions = OptionsOf<typeof planDef>;

export const syncDef = (c: Cmd) =>
  volumeOptions(
    nodeOptions(
      c
        .description(
          "Converge a pod: compute the plan and execute it in SyncPod's order (kill, sandbox, init, containers)",
        )
        .argument('[file...]', "a pod manifest ('-' for stdin); with --node, more desired pods")
        .option('-y, --yes', 'do not ask before killing containers or pods')
        .option(
          '--node',
          'converge every pod this node should run (static pods, given files), one pass; init containers are waited for as with --wait',
        )
        .option('--static-pod-path <dir>', "kubelet's staticPodPath (with --node)")
        .option(
          '--pods-api-socket <path>',
          "kubelet's Pods API socket (with --node; default <root>/pods-api/pods-api.sock; none: skip)",
        )
        .option('--remove-orphans', "with --node: kill and remove pods with kubelet's labels that no desired pod owns")
        .option('--parallel <n>', 'with --node: pods synced at once', int('--parallel'), 4)
        .option(
          '--wait',
          "wait for each init container to finish and go on, as kubelet's repeated syncs would (always so with --node)",
        )
        .option('--wait-timeout <duration>', 'how long --wait (or --node) waits for one init container', '5m')
        .option('--timings', 'report time spent in runtime calls and in syncpod itself')
        .option('--dry-run', 'print the plan and the CRI requests it would send, send nothing')
        .option(
          '--liveness-failed <container>',
          "assume kubelet's prober holds a liveness Failure for this container (repeatable; as with plan)",
          collect,
          [] as string[],
        )
        .option(
          '--startup-failed <container>',
          "assume kubelet's prober holds a startup Failure for this container (repeatable)",
          collect,
          [] as string[],
        )
        .option(
          '--startup-succeeded <container>',
          "assume kubelet's prober holds a startup Success for this container (repeatable)",
          collect,
          [] as string[],
        )
        .option('--show-secrets', 'with --dry-run, print values that came from Secrets (redacted by default)')
        .option(
          '--feature-gates <gates>',
          "kubelet feature gates NAME=true|false,..., as kubelet takes them (over the running kubelet's; see syncpod-plan(1))",
        )
        .option('-o, --output <format>', 'result format: table or json', 'table')
        .option(
          '-l, --selector <selector>',
          "only the pods whose labels match (kubectl's syntax: k=v, k!=v, k in (a,b), k, !k)",
        ),
    ),
  );
export type SyncOptions = OptionsOf<typeof syncDef>;

export const reportDef = (c: Cmd) =>
  c
    .description(
      "Merge node plans (plan --node -o json) and doctor reports (doctor -o json), as `kubectl logs -l app=syncpod --prefix` prints the DaemonSet's, into one fleet view per node",
    )
    .argument('<file...>', "log files or node plan JSON ('-' for stdin)")
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option(
      '--detailed-exitcode',
      'exit 0 when no node has pending changes or doctor findings, 2 when one has, 1 when a node reported errors',
    );
export type ReportOptions = OptionsOf<typeof reportDef>;

// ---------------------------------------------------------------------------------------------
// step commands

export const runpDef = (c: Cmd) =>
  nodeOptions(
    c
      .description("Run a new pod sandbox from a pod manifest (kubelet's config) or a crictl PodSandboxConfig file")
      .argument('<config>', "pod manifest or PodSandboxConfig (JSON/YAML; '-' for stdin)")
      .option('-r, --runtime <handler>', 'runtime handler (same as --runtime-handler)')
      .option(
        '--attempt <n>',
        'sandbox attempt for a manifest (default: next after the newest sandbox of the pod)',
        int('--attempt'),
      )
      .option('--dry-run', 'print the RunPodSandbox request as JSON, send nothing'),
  );
export type RunpOptions = OptionsOf<typeof runpDef>;

export const createDef = (c: Cmd) =>
  volumeOptions(
    nodeOptions(
      c
        .description(
          'Create a container in a pod sandbox: from a pod manifest with --container, or crictl-style from CONTAINER.json SANDBOX.json',
        )
        .argument('<pod-id>', 'pod sandbox ID or unique prefix')
        .argument('<config>', 'pod manifest (with --container) or a ContainerConfig file')
        .argument('[sandbox-config]', 'PodSandboxConfig file (crictl form)')
        .option('--container <name>', 'the container of the manifest to create (regular, init or ephemeral)')
        .option('--no-pull', 'never pull the image (default: imagePullPolicy, as kubelet)')
        .option('--dry-run', 'print the CreateContainer request (and the pull decision) as JSON, send nothing')
        .option('--show-secrets', 'with --dry-run, print values that came from Secrets (redacted by default)'),
    ),
  );
export type CreateOptions = OptionsOf<typeof createDef>;

export const startDef = (c: Cmd) =>
  c
    .description('Start one or more created containers')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('--dry-run', 'print the StartContainer requests as JSON, send nothing');
export type StartOptions = OptionsOf<typeof startDef>;

export const stopDef = (c: Cmd) =>
  desiredPodOptions(
    c
      .description('Stop one or more running containers')
      .argument('[container-id...]', 'container IDs or unique prefixes')
      .option('-a, --all', 'stop all running containers (a preview of them goes to stderr first)')
      .option('-t, --timeout <seconds>', 'seconds to wait before killing the container', int('--timeout'), 0)
      .option('--dry-run', 'print the StopContainer requests as JSON, send nothing'),
    'with -a: keep the containers of the pods this node should run (kubelet would start them again)',
  );
export type StopOptions = OptionsOf<typeof stopDef>;

export const rmDef = (c: Cmd) =>
  desiredPodOptions(
    c
      .description('Remove one or more containers')
      .argument('[container-id...]', 'container IDs or unique prefixes')
      .option('-a, --all', 'remove all containers (a preview of them goes to stderr first)')
      .option('-f, --force', 'stop the container first if it is running')
      .option('--dry-run', 'print the RemoveContainer requests as JSON, send nothing'),
    'with -a: keep the containers of the pods this node should run (kubelet would start them again)',
  );
export type RmOptions = OptionsOf<typeof rmDef>;

export const stoppDef = (c: Cmd) =>
  c
    .description('Stop one or more pod sandboxes (their containers and network)')
    .argument('<pod-id...>', 'pod sandbox IDs or unique prefixes')
    .option('--dry-run', 'print the StopPodSandbox requests as JSON, send nothing');
export type StoppOptions = OptionsOf<typeof stoppDef>;

export const rmpDef = (c: Cmd) =>
  desiredPodOptions(
    c
      .description('Remove one or more pod sandboxes')
      .argument('[pod-id...]', 'pod sandbox IDs or unique prefixes')
      .option('-a, --all', 'remove all pod sandboxes (a preview of them goes to stderr first)')
      .option('-f, --force', 'stop the sandbox first if it is ready')
      .option('--dry-run', 'print the RemovePodSandbox requests as JSON, send nothing'),
    'with -a: keep the sandboxes of the pods this node should run (kubelet would start them again)',
  );
export type RmpOptions = OptionsOf<typeof rmpDef>;

export const pullDef = (c: Cmd) =>
  c
    .description('Pull an image')
    .argument('<image>', 'NAME[:TAG|@DIGEST]')
    .option('--creds <user[:pass]>', 'registry credentials (env CRICTL_CREDS)')
    .option('--auth <base64>', "base64 of 'user[:pass]' (env CRICTL_AUTH)")
    .option(
      '-u, --username <user>',
      'registry user; the password is asked for (no echo), or read from the first line of stdin',
    )
    .option('--pod-config <file>', 'PodSandboxConfig (or pod manifest) sent with the pull')
    .option(
      '-a, --annotation <key=value>',
      'annotation set on the pulled image (ImageSpec.annotations; repeatable, or comma-separated)',
      stringSlice,
      [] as string[],
    )
    .option('--dry-run', 'print the PullImage request as JSON (registry credentials redacted), send nothing')
    .option('--show-secrets', 'with --dry-run, print the registry credentials too');
export type PullOptions = OptionsOf<typeof pullDef>;

export const rmiDef = (c: Cmd) =>
  desiredPodOptions(
    c
      .description('Remove one or more images')
      .argument('[image...]', 'image IDs, references or unique ID prefixes')
      .option('-a, --all', 'remove all images (a preview of them goes to stderr first)')
      .option(
        '--dry-run',
        'print the RemoveImage requests as JSON, send nothing (with --prune: what would go and why the rest stays)',
      )
      .option(
        '-q, --prune',
        "remove every image kubelet would not miss: not pinned, used by no container, not the runtime's sandbox image, not needed by a desired pod (--node)",
      ),
    "with --prune: keep the images the node's desired pods name (static pods, --pods files)",
  );
export type RmiOptions = OptionsOf<typeof rmiDef>;

// ---------------------------------------------------------------------------------------------
// network

export const netSetupDef = (c: Cmd) =>
  netOptions(c.description("Run CNI ADD for a sandbox's network namespace, as kubelet's CNI step did"));
export const netTeardownDef = (c: Cmd) =>
  netOptions(c.description('Run CNI DEL for a sandbox (reverse order, idempotent)'));
export const netCheckDef = (c: Cmd) => netOptions(c.description('Run CNI CHECK for a sandbox (cniVersion >= 0.4.0)'));
export type NetOptions = OptionsOf<typeof netSetupDef>;

// ---------------------------------------------------------------------------------------------
// other

export const completionDef = (c: Cmd) =>
  c.description('Print a shell completion script').argument('[shell]', 'bash, zsh or fish (default bash, as crictl)');
export type CompletionOptions = OptionsOf<typeof completionDef>;

export const warmDef = (c: Cmd) => c;
export type WarmOptions = OptionsOf<typeof warmDef>;

export const nodeDef = (c: Cmd) =>
  nodeOptions(
    c
      .description(
        "Show the node settings syncpod uses and where each comes from: its flags, the running kubelet's flags, config file and drop-ins, its version, the runtime, defaults",
      )
      .option('-o, --output <format>', OUTPUT_LIST, 'table')
      .option('--feature-gates <gates>', 'kubelet feature gates NAME=true|false,..., as kubelet takes them'),
  );
export type NodeCommandOptions = OptionsOf<typeof nodeDef>;

// ---------------------------------------------------------------------------------------------
// doctor

export const doctorDef = (c: Cmd) =>
  nodeOptions(
    c
      .description(
        "Check this node against kubelet's own rules and the runtime's own answers: what is wrong, and what would fix it",
      )
      .option(
        '--check <ids>',
        'run only these checks (ids or groups, comma-separated, repeatable; e.g. runtime,pods.crashloop)',
        stringSlice,
        [] as string[],
      )
      .option(
        '--skip <ids>',
        'leave out these checks (ids or groups, comma-separated, repeatable)',
        stringSlice,
        [] as string[],
      )
      .option(
        '-o, --output <format>',
        'output format: table, json, yaml, npd (node-problem-detector plugin: one line, exit 0 OK, 1 NonOK, 2 Unknown) or prometheus (node-exporter textfile collector)',
        'table',
      )
      .option(
        '--detailed-exitcode',
        'exit 0 when every check is ok or skipped, 2 when one warns or fails, 1 when syncpod could not run',
      )
      .option('--list', 'list the checks (id, group, title) and run nothing')
      .option(
        '--upgrade-to <version>',
        'add the upgrade group: would kubelet VERSION start on this node (removed flags, locked gates, cgroup v1, runtime, swap, config validation)',
      )
      .option(
        '--every <duration>',
        "check again every DURATION (e.g. 10m) until terminated, one JSON document per line with -o json (the DaemonSet's doctor container)",
      )
      .option('--static-pod-path <dir>', "kubelet's staticPodPath (default: the running kubelet's)")
      .option(
        '--pods-api-socket <path>',
        "kubelet's Pods API socket (default <root>/pods-api/pods-api.sock, read when present; none: skip)",
      )
      .option(
        '--pods <file>',
        "more desired pods, e.g. kubectl get pods -o yaml (repeatable; '-' for stdin): pods.orphans counts what none of them owns",
        collect,
        [] as string[],
      )
      .option(
        '--check-timeout <duration>',
        "deadline of each check; one that does not answer in time is skip: timed out (default 10s; 3s with -o npd, within node-problem-detector's 5 s plugin timeout)",
      )
      .option(
        '--stuck-after <duration>',
        "a container in Created or Unknown longer than this is stuck (default: kubelet's runtime request timeout)",
        '2m',
      ),
  );
export type DoctorOptions = OptionsOf<typeof doctorDef>;
