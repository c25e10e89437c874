// `syncpod pull`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { stringSlice, type Cmd, type OptionsOf } from '../../command-flags';

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
