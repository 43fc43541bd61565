/**
 * A cheap fingerprint of the index: open pages refresh when it changes. O(1):
 * another connection's commit moves data_version, our own writes move total_changes.
 */
import type Database from 'better-sqlite3';
import { dbVersion } from './memo';

export function indexSignature(sqlite: Database.Database): string {
  return dbVersion(sqlite);
}
