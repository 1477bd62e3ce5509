import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalDirectoryStorage } from './local.ts';
import type { FileStorage } from './storage.ts';

/** The configured file storage: the data directory's `files/` folder unless a bucket is configured. */
export function createStorage(config: Config): FileStorage {
  if (config.s3) {
    // Refuse rather than silently keep files on one server's disk behind a load balancer.
    throw new Error('ROSTER_S3_ENDPOINT is set, but this build has no S3 storage backend yet. Unset it to store files under ROSTER_DATA_DIR/files.');
  }
  return new LocalDirectoryStorage(path.join(config.dataDir, 'files'));
}
