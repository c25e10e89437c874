// How a user of the command line gives the inputs an error may say are missing (src/errors.ts
// UserInput): the flag, named here and not in the layers that find the input missing.
import { nameUserInputs, type UserInput } from '../errors';

const HOW: Record<UserInput, (name?: string) => string> = {
  'configmap-secret-values': () => 'pass them with --env-file',
  'configmap-secret-value': () => 'pass it with --env-file',
  'runtime-handler': () => 'pass the handler with --runtime-handler',
  configmap: (name) => `--configmap ${name ?? 'NAME'}=DIR`,
  secret: (name) => `--secret ${name ?? 'NAME'}=DIR`,
  'service-account-token': (name) => `--service-account-token ${name ?? 'NAME'}=FILE`,
  'allowed-unsafe-sysctls': () => 'give them with --allowed-unsafe-sysctls',
  'skip-volume': (name) => (name === undefined ? '--skip-volume' : `use --skip-volume ${name}`),
};

/** main calls this before a command runs. */
export function nameInputFlags(): void {
  nameUserInputs((input, name) => HOW[input](name));
}
