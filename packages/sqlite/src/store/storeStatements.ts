/** The SQL of a memory table's operations; every value bound, only the table name spliced. */
export function storeStatements(table: string) {
  const fts = `${table}_fts`;
  const columns = 'id, ns, key, value, version, updated_at';
  const nextSeq = `(SELECT IFNULL(MAX(seq), 0) + 1 FROM ${table})`;
  const insert = `INSERT INTO ${table} (ns, key, value, text, version, updated_at, seq, embedder, vector) VALUES (?, ?, ?, ?, 1, ?, ${nextSeq}, ?, ?)`;
  return {
    upsert: `${insert} ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, text = excluded.text, version = version + 1, updated_at = excluded.updated_at, seq = excluded.seq, embedder = excluded.embedder, vector = excluded.vector RETURNING version`,
    create: `${insert} ON CONFLICT (ns, key) DO NOTHING RETURNING version`,
    update: `UPDATE ${table} SET value = ?, text = ?, version = version + 1, updated_at = ?, seq = ${nextSeq}, embedder = ?, vector = ? WHERE ns = ? AND key = ? AND version = ? RETURNING version`,
    version: `SELECT version FROM ${table} WHERE ns = ? AND key = ?`,
    embedded: `SELECT text, embedder, vector FROM ${table} WHERE ns = ? AND key = ?`,
    get: `SELECT ${columns} FROM ${table} WHERE ns = ? AND key = ?`,
    byId: `SELECT ${columns} FROM ${table} WHERE id = ?`,
    delete: `DELETE FROM ${table} WHERE ns = ? AND key = ?`,
    list: `SELECT ${columns} FROM ${table} WHERE ns = ?`,
    recent: `SELECT ${columns} FROM ${table} WHERE ns >= ? AND ns < ? ORDER BY seq DESC`,
    recentLimited: `SELECT ${columns} FROM ${table} WHERE ns >= ? AND ns < ? ORDER BY seq DESC LIMIT ?`,
    match: `SELECT t.id, t.ns, t.key, t.value, t.version, t.updated_at, -bm25(${fts}) AS score FROM ${fts} JOIN ${table} t ON t.id = ${fts}.rowid WHERE ${fts} MATCH ? AND t.ns >= ? AND t.ns < ? ORDER BY bm25(${fts})`,
    get matchLimited() {
      return `${this.match} LIMIT ?`;
    },
    vectors: `SELECT id, vector FROM ${table} WHERE ns >= ? AND ns < ? AND embedder = ? AND vector IS NOT NULL`,
  };
}
