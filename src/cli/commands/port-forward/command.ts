// `syncpod port-forward`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const portForwardDef = (c: Cmd) =>
  c
    .description('Forward local ports to a pod sandbox: [LOCAL:]REMOTE, :REMOTE for any free local port; Ctrl-C ends')
    .argument('<pod-id-and-ports...>', 'pod sandbox ID or unique prefix (leave out with --pod), then the ports')
    .option('--address <addresses>', 'local addresses to listen on, comma-separated', '127.0.0.1')
    .option('--pod <name>', 'the newest ready pod sandbox with this name (instead of an ID)')
    .option('-n, --namespace <namespace>', 'namespace of --pod (default "default")');

export type PortForwardOptions = OptionsOf<typeof portForwardDef>;
