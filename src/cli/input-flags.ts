// How a user of the command line gives the inputs an error may say are missing (src/errors.ts
// UserInput): the flag, named here and not in the layers that find the input missing.
import { nameUserInputs, type UserInput } from '../errors';

const HOW: Record<UserInput, string> = {
  'configmap-secret-values': 'pass them with --env-file',
  'configmap-secret-value': 'pass it with --env-file',
  'runtime-handler': 'pass the handler with --runtime-handler',
};

/** main calls this before a command runs. */
export function nameInputFlags(): void {
  nameUserInputs((input) => HOW[input]);
}
