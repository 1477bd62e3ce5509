import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { EXTENSION_OF_TYPE } from '../../shared/assistants.ts';
import { isStorageKey, type ByteRange, type FileStorage, type StoredObject } from './storage.ts';

const TYPE_OF_EXTENSION: Record<string, string> = Object.fromEntries(Object.entries(EXTENSION_OF_TYPE).map(([type, ext]) => [ext, type]));

/**
 * Files under `<root>/<key>`. The content type follows from the key's extension, which the uploader
 * chose from the sniffed type (never from the client's claim).
 */
export class LocalDirectoryStorage implements FileStorage {
  readonly tempDir: string;

  constructor(private readonly root: string) {
    this.tempDir = path.join(root, '.tmp');
    fs.mkdirSync(this.tempDir, { recursive: true, mode: 0o700 });
    this.removeStaleUploads();
  }

  /**
   * Uploads cut short by a crash leave `.part` files behind. Only old ones go: another server sharing
   * the directory may be receiving one right now.
   */
  private removeStaleUploads(maxAgeMs = 60 * 60 * 1000): void {
    const cutoff = Date.now() - maxAgeMs;
    for (const name of fs.readdirSync(this.tempDir)) {
      if (!name.endsWith('.part')) continue;
      const file = path.join(this.tempDir, name);
      try {
        if (fs.statSync(file).mtimeMs < cutoff) fs.rmSync(file, { force: true });
      } catch {
        // Gone meanwhile, or not ours to remove: leave it.
      }
    }
  }

  private pathOf(key: string): string {
    if (!isStorageKey(key)) throw new Error('Invalid storage key');
    return path.join(this.root, ...key.split('/'));
  }

  async putFile(key: string, tempPath: string, _contentType: string): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    try {
      // Same file system as tempDir: an atomic rename, readers never see a partial file.
      await fsp.rename(tempPath, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await fsp.copyFile(tempPath, target);
      await fsp.rm(tempPath, { force: true });
    }
  }

  async stat(key: string): Promise<{ size: number; contentType: string } | null> {
    if (!isStorageKey(key)) return null;
    try {
      const stat = await fsp.stat(this.pathOf(key));
      if (!stat.isFile()) return null;
      const ext = key.slice(key.lastIndexOf('.') + 1);
      return { size: stat.size, contentType: TYPE_OF_EXTENSION[ext] ?? 'application/octet-stream' };
    } catch {
      return null;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const stat = await this.stat(key);
    if (!stat) return null;
    return { ...stat, body: fs.createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {}) };
  }

  async delete(key: string): Promise<void> {
    if (!isStorageKey(key)) return;
    await fsp.rm(this.pathOf(key), { force: true });
  }
}
