import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalDirectoryStorage } from './local.ts';
import { S3Storage } from './s3.ts';
import type { FileStorage } from './storage.ts';

/** The configured file storage: a bucket when ROSTER_S3_ENDPOINT is set, else the data directory's `files/`. */
export function createStorage(config: Config): FileStorage {
  if (config.s3) return new S3Storage(config.s3, config.dataDir);
  return new LocalDirectoryStorage(path.join(config.dataDir, 'files'));
}
