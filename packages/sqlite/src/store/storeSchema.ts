import type { SqliteSchema } from '../driver/sqliteConnection.js';

/**
 * The numbered migrations of a memory table and its full-text index. Never edit one that
 * shipped: add the next.
 * 1: items by (namespace path, key) with version, times, the indexed text and an optional
 *    vector (float32 blob, with the embedder's name); an FTS5 index (porter stemming over
 *    unicode61) over the text, kept in step by triggers.
 */
export function storeSchema(table: string): SqliteSchema {
  const fts = `${table}_fts`;
  return {
    target: table,
    migrations: [
      {
        version: 1,
        description: 'memory items, their FTS5 index and its triggers',
        sql: `
CREATE TABLE ${table} (
  id INTEGER PRIMARY KEY,
  ns TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  text TEXT NOT NULL,
  version INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL,
  embedder TEXT,
  vector BLOB,
  UNIQUE (ns, key)
);
CREATE INDEX ${table}_seq ON ${table} (seq);
CREATE VIRTUAL TABLE ${fts} USING fts5(text, content='${table}', content_rowid='id', tokenize='porter unicode61');
CREATE TRIGGER ${table}_ai AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${fts} (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER ${table}_ad AFTER DELETE ON ${table} BEGIN
  INSERT INTO ${fts} (${fts}, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER ${table}_au AFTER UPDATE OF text ON ${table} BEGIN
  INSERT INTO ${fts} (${fts}, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO ${fts} (rowid, text) VALUES (new.id, new.text);
END;`,
      },
    ],
  };
}
