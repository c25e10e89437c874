// Performs the filesystem work the pure config generators return as data (FsEffect), the way
// kubelet's code does it: directories created with their mode (existing ones left as they are),
// the termination-log file created empty and chmod 0666, /etc/hosts written whole.
import type { FsEffect } from '../kubelet/mounts';
import { SyncpodError } from '../errors';
import type { SyncFs } from './types';

const HOST_PATH_KINDS: Record<string, string> = {
  Directory: 'dir',
  File: 'file',
  Socket: 'socket',
  CharDevice: 'char',
  BlockDevice: 'block',
};

/** One line saying what an effect does, for --dry-run and results. */
export function describeEffect(e: FsEffect): string {
  switch (e.kind) {
    case 'mkdir':
      return `mkdir ${e.path} (${e.mode.toString(8)}, ${e.why})`;
    case 'touch':
      return `touch ${e.path} (${e.mode.toString(8)}, ${e.why})`;
    case 'writeFile':
      return `write ${e.path} (${e.mode.toString(8)}, ${e.why})`;
    case 'mkdirSubPath':
      return `mkdir ${e.root}/${e.subPath} (${e.why})`;
    case 'checkHostPath':
      return `check ${e.path} is a ${e.type} (${e.why})`;
  }
}

export function applyEffect(fs: SyncFs, e: FsEffect): void {
  switch (e.kind) {
    case 'mkdir': {
      if (fs.exists(e.path)) return;
      fs.mkdirAll(e.path, e.mode);
      fs.chmod(e.path, e.mode);
      return;
    }
    // touch and writeFile set the mode on what they created or opened (never through a symlink).
    case 'touch':
      fs.touch(e.path, e.mode);
      return;
    case 'writeFile':
      fs.writeFile(e.path, e.content, e.mode);
      return;
    case 'mkdirSubPath': {
      const mode = fs.mode(e.root);
      let path = e.root.replace(/\/+$/, '');
      for (const part of e.subPath.split('/').filter((p) => p !== '' && p !== '.')) {
        path += '/' + part;
        if (!fs.exists(path)) {
          fs.mkdirAll(path, mode);
          fs.chmod(path, mode);
        }
      }
      return;
    }
    case 'checkHostPath': {
      const want = HOST_PATH_KINDS[e.type];
      const have = fs.kind(e.path);
      if (have === undefined) throw new SyncpodError(`${e.why}: hostPath type check failed: ${e.path} does not exist`);
      if (want !== undefined && have !== want)
        throw new SyncpodError(`${e.why}: hostPath type check failed: ${e.path} is not a ${e.type}`);
      return;
    }
  }
}
