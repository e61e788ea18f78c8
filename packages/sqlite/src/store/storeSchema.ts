import type { SqliteSchema } from '../driver/sqliteConnection.js';

/**
 * The numbered migrations of a memory table and its full-text index. Never edit one that
 * shipped: add the next.
 * 1: items by (namespace path, key) with version, times, the indexed text and an optional
 *    vector (float32 blob, with the embedder's name); an FTS5 index (porter stemming over
 *    unicode61) over the text, kept in step by triggers.
 * 2: the namespace inside the full-text index, so a search of one namespace is one FTS5
 *    query that ranks only that namespace's matches (no join filtered after ranking): a
 *    generated column `nsterm` (`n` and the path's bytes in hex: one letters-and-digits token
 *    the tokenizer keeps whole, and whose prefixes are the paths under a namespace), indexed
 *    as the FTS table's second column (weight 0 in ranking); the index is rebuilt from the
 *    rows, and the triggers index both columns.
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
      {
        version: 2,
        description: 'the namespace as a token of the FTS5 index',
        sql: `
DROP TRIGGER ${table}_ai;
DROP TRIGGER ${table}_ad;
DROP TRIGGER ${table}_au;
DROP TABLE ${fts};
ALTER TABLE ${table} ADD COLUMN nsterm TEXT GENERATED ALWAYS AS ('n' || lower(hex(ns))) VIRTUAL;
CREATE VIRTUAL TABLE ${fts} USING fts5(text, nsterm, content='${table}', content_rowid='id', tokenize='porter unicode61');
INSERT INTO ${fts} (${fts}) VALUES ('rebuild');
CREATE TRIGGER ${table}_ai AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${fts} (rowid, text, nsterm) VALUES (new.id, new.text, new.nsterm);
END;
CREATE TRIGGER ${table}_ad AFTER DELETE ON ${table} BEGIN
  INSERT INTO ${fts} (${fts}, rowid, text, nsterm) VALUES ('delete', old.id, old.text, old.nsterm);
END;
CREATE TRIGGER ${table}_au AFTER UPDATE OF text, ns ON ${table} BEGIN
  INSERT INTO ${fts} (${fts}, rowid, text, nsterm) VALUES ('delete', old.id, old.text, old.nsterm);
  INSERT INTO ${fts} (rowid, text, nsterm) VALUES (new.id, new.text, new.nsterm);
END;`,
      },
    ],
  };
}
