// Definitions of the runtime and look commands (crictl's names and flags): version, info, pods,
// inspectp, ps, inspect, logs, images, inspecti. The table is src/cli/commands.ts.
import { int, stringSlice, OUTPUT_INSPECT, OUTPUT_LIST, TEMPLATE, type Cmd, type OptionsOf } from './command-flags';

// ---------------------------------------------------------------------------------------------
// runtime

export const versionDef = (c: Cmd) =>
  c
    .description('Display runtime version information (and the CRI API version in use)')
    .option('-o, --output <format>', 'output format: text, json or yaml', 'text');
export type VersionOptions = OptionsOf<typeof versionDef>;

export const infoDef = (c: Cmd) =>
  c
    .description('Display information of the container runtime: status conditions and verbose info')
    .option('-o, --output <format>', 'output format: json, yaml or go-template', 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information');
export type InfoOptions = OptionsOf<typeof infoDef>;

// ---------------------------------------------------------------------------------------------
// look commands

export const podsDef = (c: Cmd) =>
  c
    .description('List pod sandboxes')
    .option('--id <id>', 'filter by pod id (prefix)')
    .option('--name <regex>', 'filter by pod name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-s, --state <state>', 'filter by pod state: ready or notready')
    .option('--label <key=value>', 'filter by label (repeatable, or comma-separated)', stringSlice, [] as string[])
    .option('-v, --verbose', 'show verbose info for pods')
    .option('-q, --quiet', 'list only pod IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created pod')
    .option('-n, --last <n>', 'show the last n recently created pods (0 for unlimited)', int('--last'), 0)
    .option('--no-trunc', 'show output without truncating the ID');
export type PodsOptions = OptionsOf<typeof podsDef>;

export const inspectpDef = (c: Cmd) =>
  c
    .description('Display the status of one or more pod sandboxes (without IDs: of every pod the filters keep)')
    .argument('[pod-id...]', 'pod sandbox IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information')
    .option('--name <regex>', 'without IDs: filter by pod name regular expression')
    .option('--namespace <regex>', 'without IDs: filter by pod namespace regular expression')
    .option('-s, --state <state>', 'without IDs: filter by pod state: ready or notready')
    .option(
      '--label <key=value>',
      'without IDs: filter by label (repeatable, or comma-separated)',
      stringSlice,
      [] as string[],
    )
    .option('-l, --latest', 'without IDs: the most recently created pod')
    .option('-n, --last <n>', 'without IDs: the last n recently created pods (0 for unlimited)', int('--last'), 0);
export type InspectpOptions = OptionsOf<typeof inspectpDef>;

export const psDef = (c: Cmd) =>
  c
    .description('List containers')
    .option('-a, --all', 'show all containers (default: running only)')
    .option('--id <id>', 'filter by container id (prefix)')
    .option('--name <regex>', 'filter by container name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-p, --pod <pod-id>', 'filter by pod id (prefix)')
    .option('--image <image>', 'filter by container image')
    .option('-s, --state <state>', 'filter by container state: created, running, exited or unknown')
    .option('--label <key=value>', 'filter by label (repeatable, or comma-separated)', stringSlice, [] as string[])
    .option('-v, --verbose', 'show verbose information for containers')
    .option('-q, --quiet', 'only display container IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created container (includes all states)')
    .option(
      '-n, --last <n>',
      'show the last n recently created containers, all states (0 for unlimited)',
      int('--last'),
      0,
    )
    .option('--no-trunc', 'show output without truncating the ID')
    .option('-r, --resolve-image-path', "show the image's first repo tag instead of its ID");
export type PsOptions = OptionsOf<typeof psDef>;

export const inspectDef = (c: Cmd) =>
  c
    .description('Display the status of one or more containers (without IDs: of every container the filters keep)')
    .argument('[container-id...]', 'container IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information')
    .option('-a, --all', 'without IDs: containers in every state (default: running only)')
    .option('--name <regex>', 'without IDs: filter by container name regular expression')
    .option('--namespace <regex>', 'without IDs: filter by pod namespace regular expression')
    .option('-p, --pod <pod-id>', 'without IDs: filter by pod id (prefix)')
    .option('--image <image>', 'without IDs: filter by container image')
    .option('-s, --state <state>', 'without IDs: filter by container state: created, running, exited or unknown')
    .option(
      '--label <key=value>',
      'without IDs: filter by label (repeatable, or comma-separated)',
      stringSlice,
      [] as string[],
    )
    .option('-l, --latest', 'without IDs: the most recently created container (all states)')
    .option(
      '-n, --last <n>',
      'without IDs: the last n recently created containers, all states (0 for unlimited)',
      int('--last'),
      0,
    );
export type InspectOptions = OptionsOf<typeof inspectDef>;

export const logsDef = (c: Cmd) =>
  c
    .description('Fetch the logs of a container from its CRI log file')
    .argument('<container-id>', 'container ID or unique prefix')
    .option('-f, --follow', 'follow the log until the container exits')
    .option('--tail <n>', 'number of lines to show from the end (-1 for all)', int('--tail'), -1)
    .option('--since <time>', 'show logs since a timestamp (RFC3339) or a relative time like 42m')
    .option('-t, --timestamps', 'show timestamps')
    .option('-p, --previous', "print the logs of the container's previous instance (same pod, same name)")
    .option(
      '--limit-bytes <n>',
      "stop after this many bytes of log output (0 or negative: no limit, as crictl's -1)",
      int('--limit-bytes'),
      -1,
    )
    .option('--stream <stream>', 'only this stream: stdout or stderr (not with --tail)')
    .option('-r, --reopen', 'ask the runtime to reopen the log file first (ReopenContainerLog, after a rotation)');
export type LogsOptions = OptionsOf<typeof logsDef>;

export const imagesDef = (c: Cmd) =>
  c
    .description('List images')
    .argument('[repository[:tag]]', 'only images matching this reference')
    .option('-q, --quiet', 'only show image IDs')
    .option('-v, --verbose', 'show verbose info for images')
    .option('--digests', 'show digests')
    .option('--pinned', 'show whether the image is pinned (PINNED column)')
    .option('--no-trunc', 'show output without truncating the ID')
    .option(
      '-f, --filter <condition>',
      'dangling=true|false, reference=REGEX, before=IMAGE, since=IMAGE (repeatable, or comma-separated)',
      stringSlice,
      [] as string[],
    )
    .option('-o, --output <format>', OUTPUT_LIST, 'table');
export type ImagesOptions = OptionsOf<typeof imagesDef>;

export const inspectiDef = (c: Cmd) =>
  c
    .description('Return the status of one or more images (without arguments: of every image the filters keep)')
    .argument('[image...]', 'image IDs, references or unique ID prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information')
    .option('--name <repository[:tag]>', 'without arguments: only images matching this reference')
    .option(
      '-f, --filter <condition>',
      'without arguments: dangling=true|false, reference=REGEX, before=IMAGE, since=IMAGE (repeatable, or comma-separated)',
      stringSlice,
      [] as string[],
    );
export type InspectiOptions = OptionsOf<typeof inspectiDef>;
