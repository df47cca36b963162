// Host errors with the same `code`, exit code, message and JSON shape as the Rust host
// (host-harness/src/error.rs): {"error": {"code", "message", "exit_code", ...details}}.
import { constants as osConstants } from 'node:os';

export class HostError extends Error {
  /**
   * @param {string} code  invalid_input | corrupt_state | state_store | sandbox_limit |
   *                       refused_transition | component_trap | component_load
   * @param {number} exitCode
   * @param {string} message
   * @param {object} details  extra members of the error JSON
   */
  constructor(code, exitCode, message, details = {}) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
    this.details = details;
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, exit_code: this.exitCode, ...this.details } };
  }
}

export const invalidInput = (field, message) =>
  new HostError('invalid_input', 3, `invalid ${field}: ${message}`, { field });

export const corruptDocument = (file, path, message) =>
  new HostError('corrupt_state', 4,
    `${path ?? file} is unusable: ${message}; it was left as it is — repair it or move it aside, then retry`,
    { file, path: path ?? null });

export const refused = (r) =>
  new HostError('refused_transition', 6,
    `${r.command} is not allowed while daily_rec_status is ${r.current} (allowed from: ${r.allowedFrom.join(', ')}); ${r.hint}`,
    { command: r.command, current: r.current, allowed_from: r.allowedFrom, hint: r.hint });

/** A state-store failure (exit 4); `path` is the file concerned or null. */
export const storeError = (message, path) => new HostError('state_store', 4, message, { path: path ?? null });

export const trap = (message, guestStderr) =>
  new HostError('component_trap', 1, `the component trapped: ${message}`, { guest_stderr: guestStderr });

export const componentLoad = (message) => new HostError('component_load', 1, `cannot load the component: ${message}`);

export const limit = (kind, text) => new HostError('sandbox_limit', 5, `sandbox limit: ${text}`, { limit: kind });

// Rust prints an io::Error as "<strerror> (os error N)"; Node gives "ENOENT: no such file ...".
const STRERROR = {
  EPERM: 'Operation not permitted', ENOENT: 'No such file or directory', EIO: 'Input/output error',
  EACCES: 'Permission denied', EEXIST: 'File exists', ENOTDIR: 'Not a directory', EISDIR: 'Is a directory',
  EINVAL: 'Invalid argument', EMFILE: 'Too many open files', ENOSPC: 'No space left on device',
  EROFS: 'Read-only file system', ELOOP: 'Too many levels of symbolic links', ENAMETOOLONG: 'File name too long',
  ENOTEMPTY: 'Directory not empty', EBUSY: 'Device or resource busy', EXDEV: 'Invalid cross-device link',
  EAGAIN: 'Resource temporarily unavailable', EFBIG: 'File too large',
};

/** An fs error as Rust's io::Error Display writes it. */
export function ioMessage(e) {
  const text = STRERROR[e?.code];
  const errno = osConstants.errno[e?.code];
  if (text && errno !== undefined) return `${text} (os error ${errno})`;
  return e?.message ?? String(e);
}
