// The SQLite layout: a log of every write (its id is the global revision) plus an index of the
// newest live row per key, so reads of the present are one join and reads of the past are
// a max-per-key over the log.

export const schemaSql = `
CREATE TABLE IF NOT EXISTS kv (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value BLOB NOT NULL,
  written_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS kv_name_id ON kv (name, id);
CREATE TABLE IF NOT EXISTS live (name TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL) WITHOUT ROWID;
`;

export interface Row {
  id: number;
  name: string;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: Uint8Array;
  written_at: number;
}
