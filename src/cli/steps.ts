// Placeholder while this command group is being written; every handler refuses clearly.
import { SyncpodError } from '../errors';

const notYet = async (): Promise<number> => {
  throw new SyncpodError('this command is not implemented yet');
};
export const runp = notYet;
export const create = notYet;
export const start = notYet;
export const stop = notYet;
export const rm = notYet;
export const stopp = notYet;
export const rmp = notYet;
export const pull = notYet;
export const rmi = notYet;
