// The layers of src/ as data: which part may import which. `npm run check` runs dependency-cruiser
// with the rules made from this table (npm run layers), and test/unit/layers.test.ts checks that
// CONTRIBUTING.md's layout names the same parts and arrows. A part not in the table fails the check.
//
// `imports`: what a part may import at run time. `types`: what it may import with `import type` only
// (vocabulary, no code runs). Every cycle is refused, type-only ones too (none are declared).

/** @type {Record<string, {path: string, about: string, imports: string[], types?: string[]}>} */
const layers = {
  entry: { path: '^src/entry\\.ts$', about: 'runs main on the real process, flushes output, the only process.exit', imports: ['main', 'base'] },
  main: { path: '^src/main\\.ts$', about: 'composition root: argv -> commander -> Context -> command; the exit code', imports: ['table', 'cli', 'render', 'base'] },
  table: {
    path: '^src/cli/command-table\\.ts$',
    about: "the typed command table: one row per command folder, its flags read at start-up, its run.ts by the only import() of the project's code",
    imports: ['commands', 'cli', 'base'],
  },
  commands: {
    path: '^src/cli/commands/',
    about: 'one folder per command, named after it: command.ts (flags, options type), run.ts (handler: flags wired to workflows and render), man.ts (man page text)',
    // logs, stream, fleet and doctor are each one command's own code (no flow shared below cli);
    // filters is crictl's filter vocabulary the commands parse flags with; plan for a plan's exit codes.
    imports: ['cli', 'workflows', 'render', 'config', 'logs', 'stream', 'fleet', 'doctor', 'filters', 'plan', 'base'],
    types: ['cri', 'kubelet', 'node', 'sync', 'state', 'cni', 'manifest'],
  },
  cli: {
    path: '^src/cli/(?!commands/|command-table\\.ts$)',
    about: 'the program, the Context, flag groups (command-flags) and the code several commands share; man page rendering',
    imports: ['table', 'workflows', 'render', 'config', 'logs', 'stream', 'fleet', 'doctor', 'filters', 'plan', 'base'],
    types: ['commands', 'cri', 'kubelet', 'node', 'sync', 'state', 'cni', 'manifest'],
  },
  workflows: {
    path: '^src/workflows/',
    about: 'flows commands share, dependencies as interfaces',
    imports: [
      'state',
      'plan',
      'sync',
      'render',
      'cri',
      'cni',
      'manifest',
      'kubelet',
      'node',
      'doctor',
      'logs',
      'stream',
      'fleet',
      'filters',
      'config',
      'base',
    ],
  },
  render: {
    path: '^src/render/',
    about: 'table / json / yaml / plan views, progress UIs; CRI messages as protobuf JSON',
    imports: ['plan', 'kubelet', 'cri', 'cni', 'doctor', 'fleet', 'node', 'config', 'base'],
    types: ['sync', 'state'],
  },
  doctor: {
    path: '^src/doctor/',
    about: '`doctor` as data: checks, registry, report',
    imports: ['state', 'cni', 'cri', 'node', 'plan', 'kubelet', 'base'],
  },
  stream: { path: '^src/stream/', about: 'exec / attach / port-forward streaming', imports: ['state', 'cri', 'base'] },
  logs: { path: '^src/logs/', about: 'CRI log files: parse, follow, rotate', imports: ['cri', 'config', 'base'] },
  fleet: { path: '^src/fleet/', about: 'the fleet report of many nodes', imports: ['base'] },
  filters: {
    path: '^src/state/filters\\.ts$',
    about: "crictl's filters (id prefixes, label selectors, names): commands parse flags, state applies them",
    imports: ['cri', 'base'],
  },
  state: {
    path: '^src/state/(?!filters\\.ts$)',
    about: 'observation: CRI lists/statuses -> kubelet PodStatus',
    imports: ['filters', 'cri', 'cni', 'manifest', 'plan', 'kubelet', 'base'],
    types: ['sync'],
  },
  sync: {
    path: '^src/sync/',
    about: 'executor: plan steps -> CRI/CNI calls, results',
    imports: ['cri', 'plan', 'kubelet', 'config', 'base'],
  },
  node: { path: '^src/node/', about: 'the node: kubelet process, flags, config file', imports: ['cri', 'base'] },
  plan: { path: '^src/plan/', about: 'plan data (the JSON contract), steps, reasons', imports: ['manifest', 'kubelet', 'base'] },
  manifest: { path: '^src/manifest/', about: 'pod YAML/JSON loading, defaults, validation', imports: ['kubelet', 'base'] },
  cri: { path: '^src/cri/', about: 'the gRPC client, codecs, API negotiation', imports: ['base'] },
  cni: { path: '^src/cni/', about: 'CNI config, plugin invocation, result cache', imports: ['base'] },
  config: {
    path: '^src/config/',
    about: 'endpoint/timeout resolution, crictl.yaml',
    imports: ['base'],
    types: ['cri'],
  },
  kubelet: {
    path: '^src/kubelet/',
    about: "PURE mirror of kuberuntime (no node:*, clock, env, gRPC)",
    imports: ['base'],
    types: ['cri'],
  },
  base: { path: '^src/(errors|json-object|read-input|utf8|version)\\.ts$', about: 'errors, JSON values, input (size limit, UTF-8), version', imports: [] },
};

const partOf = (name) => layers[name].path;
const anyOf = (names) => names.map(partOf);

/**
 * Inside the commands part: a command is found by its name and keeps to its folder, and what start-up
 * reads stays small. (CONTRIBUTING.md, "Adding a command", says the same in words.)
 */
const COMMAND_RULES = [
  {
    name: 'command-own-folder',
    comment: "A command's code lives in its own folder (src/cli/commands/NAME/); code several commands share goes to src/cli/.",
    severity: 'error',
    from: { path: '^src/cli/commands/([^/]+)/' },
    to: { path: '^src/cli/commands/', pathNot: '^src/cli/commands/$1/', dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'command-definition-light',
    comment: "A command's command.ts is read at every start: it imports only the shared flag groups (src/cli/command-flags.ts) and commander's types.",
    severity: 'error',
    from: { path: '^src/cli/commands/[^/]+/command\\.ts$' },
    to: { pathNot: '^src/cli/command-flags\\.ts$', dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'command-run-lazy',
    comment: "A command's run.ts is loaded only by the table's import(), so that a run reads only the invoked command's code.",
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^src/cli/commands/[^/]+/run\\.ts$', dependencyTypesNot: ['dynamic-import'] },
  },
  {
    name: 'command-man-text',
    comment: "A command's man.ts is text for npm run man: it imports only the pieces pages share (src/cli/man-text.ts).",
    severity: 'error',
    from: { path: '^src/cli/commands/[^/]+/man\\.ts$' },
    to: { pathNot: '^src/cli/man-text\\.ts$' },
  },
];

const forbidden = [
  {
    name: 'no-cycle',
    comment: 'An import cycle (type-only too): move the shared part down a layer.',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  {
    name: 'unknown-part',
    comment: 'Every file of src/ belongs to a part of the layer table in .dependency-cruiser.cjs.',
    severity: 'error',
    from: { path: '^src/', pathNot: anyOf(Object.keys(layers)) },
    to: {},
  },
  ...COMMAND_RULES,
  ...Object.entries(layers).flatMap(([name, part]) => {
    const own = [part.path];
    const values = [...own, ...anyOf(part.imports)];
    const types = [...values, ...anyOf(part.types ?? [])];
    return [
      {
        name: `${name}-imports`,
        comment: `${name} may import ${part.imports.join(', ') || 'nothing of src/'} (.dependency-cruiser.cjs)`,
        severity: 'error',
        from: { path: part.path },
        to: { path: '^src/', pathNot: values, dependencyTypesNot: ['type-only'] },
      },
      {
        name: `${name}-type-imports`,
        comment: `${name} may import types of ${[...part.imports, ...(part.types ?? [])].join(', ') || 'nothing'}`,
        severity: 'error',
        from: { path: part.path },
        to: { path: '^src/', pathNot: types, dependencyTypes: ['type-only'] },
      },
    ];
  }),
];

const config = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/cri/gen/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};

// The table itself, for test/unit/layers.test.ts (not enumerable: dependency-cruiser's config schema
// admits no extra keys).
Object.defineProperty(config, 'layers', { value: layers, enumerable: false });
Object.defineProperty(config, 'commandRules', { value: COMMAND_RULES, enumerable: false });
module.exports = config;
