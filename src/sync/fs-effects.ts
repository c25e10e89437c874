// Performs the filesystem work the pure config generators return as data (FsEffect), the way
// kubelet's code does it: directories created with their mode (existing ones left as they are),
// the termination-log file created empty and chmod 0666, /etc/hosts written whole.
import type { FsEffect } from '../kubelet/mounts';
import { errorLine, SyncpodError } from '../errors';
import { StepError, type SyncFs } from './types';

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
    case 'bindSubPath':
      return `mount --bind ${e.volumePath}/${e.subPath} ${e.target} (${e.why}, resolved inside the volume)`;
    case 'checkHostPath':
      return `check ${e.path} is a ${e.type} (${e.why})`;
    case 'mountTmpfs':
      return `mount tmpfs ${e.path} (${tmpfsOptions(e).join(',') || 'kernel default size'}, ${e.why})`;
    case 'volumeOwnership':
      return `chgrp -R ${e.gid} ${e.path} and add ${e.readOnly ? 'g+r' : 'g+rw'} (fsGroup, ${e.why})`;
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
    // touch sets the mode of a file it makes (an existing one is left), writeFile of the file it
    // writes; neither goes through a symlink.
    case 'touch':
      fs.touch(e.path, e.mode);
      return;
    case 'writeFile':
      fs.writeFile(e.path, e.content, e.mode);
      return;
    case 'bindSubPath':
      return bindSubPathEffect(fs, e);
    case 'mountTmpfs': {
      if (!fs.mountTmpfs) throw new SyncpodError(`${e.why}: this filesystem cannot mount a tmpfs`);
      if (!fs.exists(e.path)) fs.mkdirAll(e.path, e.mode);
      fs.chmod(e.path, e.mode);
      fs.mountTmpfs(e.path, tmpfsOptions(e));
      return;
    }
    case 'volumeOwnership':
      if (!fs.volumeOwnership) {
        if (e.bestEffort) return;
        throw new SyncpodError(`${e.why}: this filesystem cannot change ownership`);
      }
      try {
        fs.volumeOwnership(e.path, e.gid, e.readOnly);
      } catch (err) {
        if (!e.bestEffort) throw err;
      }
      return;
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

/**
 * makeMounts' subPath half (kubelet_pods.go): a missing subPath is made inside the volume with the
 * volume's mode (SafeMakeDir), then resolved and bind-mounted (PrepareSafeSubpath). Failures carry
 * kubelet's CreateContainerConfigError wording, then what went wrong.
 */
function bindSubPathEffect(fs: SyncFs, e: Extract<FsEffect, { kind: 'bindSubPath' }>): void {
  const which = `volumeMount "${e.mountName}" of container "${e.containerName}"`;
  if (!fs.exists(`${e.volumePath.replace(/\/+$/, '')}/${e.subPath}`)) {
    try {
      fs.safeMakeDir(e.volumePath, e.subPath, fs.mode(e.volumePath));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new StepError(
          'CreateContainerConfigError',
          `failed to create subPath directory for ${which}: ${errorLine(err)}`,
        );
    }
  }
  try {
    fs.bindSubPath({ volumePath: e.volumePath, subPath: e.subPath, target: e.target });
  } catch (err) {
    throw new StepError('CreateContainerConfigError', `failed to prepare subPath for ${which}: ${errorLine(err)}`);
  }
}
