/** How many searches of a range reuse its measured share before it is measured again. */
const REMEASURE_AFTER = 256;

/**
 * The share of a table's items each searched namespace range holds, measured by counting
 * (two index scans) on the range's first search and again every few hundred searches: it
 * only picks the faster of two plans that return the same rows, so an estimate gone stale
 * by other writers costs time, never a wrong result. Internal.
 */
export class RangeShares {
  readonly #shares = new Map<string, { share: number; uses: number }>();

  /** The share (0–1) of the items in the range `from`, measured with `count` when due. */
  share(from: string, count: () => { inRange: number; total: number }): number {
    const known = this.#shares.get(from);
    if (known !== undefined && known.uses++ < REMEASURE_AFTER) return known.share;
    const { inRange, total } = count();
    const share = total === 0 ? 1 : inRange / total;
    // A bounded map: ranges of many users searched once each must not grow it forever.
    if (known === undefined && this.#shares.size >= 1024) this.#shares.clear();
    this.#shares.set(from, { share, uses: 0 });
    return share;
  }
}
