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
    // One ranking (bm25 over `text`; `nsterm` weighs nothing), three plans (see search):
    // the best `?` matches of an FTS5 query, joined only for the rows kept (`rankedLimited`:
    // with the namespace term in the query, or over the whole table); every match of it
    // (`under`); every match joined and filtered by the path range, ranked after the filter
    // (`within`).
    under: `SELECT t.id, t.ns, t.key, t.value, t.version, t.updated_at, -bm25(${fts}, 1.0, 0.0) AS score FROM ${fts} JOIN ${table} t ON t.id = ${fts}.rowid WHERE ${fts} MATCH ? ORDER BY bm25(${fts}, 1.0, 0.0)`,
    rankedLimited: `SELECT t.id, t.ns, t.key, t.value, t.version, t.updated_at, -h.bm AS score FROM (SELECT rowid AS id, bm25(${fts}, 1.0, 0.0) AS bm FROM ${fts} WHERE ${fts} MATCH ? ORDER BY bm LIMIT ?) h JOIN ${table} t ON t.id = h.id ORDER BY h.bm`,
    within: `SELECT t.id, t.ns, t.key, t.value, t.version, t.updated_at, -bm25(${fts}, 1.0, 0.0) AS score FROM ${fts} JOIN ${table} t ON t.id = ${fts}.rowid WHERE ${fts} MATCH ? AND t.ns >= ? AND t.ns < ? ORDER BY bm25(${fts}, 1.0, 0.0)`,
    get withinLimited() {
      return `${this.within} LIMIT ?`;
    },
    count: `SELECT COUNT(*) AS n FROM ${table}`,
    countWithin: `SELECT COUNT(*) AS n FROM ${table} WHERE ns >= ? AND ns < ?`,
    vectors: `SELECT id, vector FROM ${table} WHERE ns >= ? AND ns < ? AND embedder = ? AND vector IS NOT NULL`,
  };
}
