import type { CreateTableBuilder } from 'kysely';
import type { Dialect } from './connection.ts';

/** An auto-incrementing integer primary key, spelled for each dialect. */
export function withIdColumn<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** 64-bit integers (micro-units of money, counters) on both dialects. */
export const BIGINT = 'bigint' as const;
