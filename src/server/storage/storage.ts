import type { Readable } from 'node:stream';

/** A byte range of a stored object, inclusive, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  /** Total size of the object in bytes. */
  size: number;
  contentType: string;
  /** The whole object, or the range asked for. */
  body: Readable;
}

/**
 * Where uploaded files live. Keys are `<folder>/<random or content hash>.<ext>`: an object never changes
 * once written, so it can be cached forever. The local directory is the default; an S3-compatible
 * backend implements the same four calls (putFile streams the finished temp file to the bucket).
 */
export interface FileStorage {
  /** A local directory for uploads in progress (size-checked and sniffed before they are kept). */
  readonly tempDir: string;
  /** Takes ownership of a finished temp file and stores it under `key`. */
  putFile(key: string, tempPath: string, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  /** Size and type without reading the object, or null when there is none. */
  stat(key: string): Promise<{ size: number; contentType: string } | null>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys this service writes: a folder, a name of safe characters, an extension. Nothing else is served. */
export const STORAGE_KEY = /^(photos|voices|presets)\/[A-Za-z0-9_-]{8,80}\.[a-z0-9]{2,5}$/;

export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key);
}

/** The storage backend cannot be reached or refused the operation: the API answers 503 + Retry-After. */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}
