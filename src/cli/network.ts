// Placeholder while this command group is being written; every handler refuses clearly.
import { SyncpodError } from '../errors';

const notYet = async (): Promise<number> => {
  throw new SyncpodError('this command is not implemented yet');
};
export const netSetup = notYet;
export const netTeardown = notYet;
export const netCheck = notYet;
