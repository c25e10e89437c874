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
    case 'mountTmpfs':
      return `mount tmpfs ${e.path} (${tmpfsOptions(e).join(',') || 'kernel default size'}, ${e.why})`;
    case 'atomicWrite':
      // Paths and modes only, never a file's content.
      return `write ${e.files.length} file(s) into ${e.dir} (atomic writer: ${e.files.map((f) => f.path).join(', ') || 'none'}, ${e.why})`;
  }
}

/** kubelet's generateTmpfsMountOptions: size=N when a size is known, noswap when the kernel takes it. */
export function tmpfsOptions(e: { sizeBytes: number; noswap: boolean }): string[] {
  return [...(e.sizeBytes > 0 ? [`size=${e.sizeBytes}`] : []), ...(e.noswap ? ['noswap'] : [])];
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
    case 'mountTmpfs': {
      if (!fs.mountTmpfs) throw new SyncpodError(`${e.why}: this filesystem cannot mount a tmpfs`);
      if (!fs.exists(e.path)) fs.mkdirAll(e.path, e.mode);
      fs.chmod(e.path, e.mode);
      fs.mountTmpfs(e.path, tmpfsOptions(e));
      return;
    }
    case 'atomicWrite':
      if (!fs.atomicWrite) throw new SyncpodError(`${e.why}: this filesystem cannot write volume files`);
      fs.atomicWrite(e.dir, e.files, e.timestampDir);
      return;
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
