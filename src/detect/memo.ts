/**
 * A memo of at most `limit` values by string key, cleared when full: the fold meets each text once per branch, and
 * siblings and re-folds hit the memo.
 */
export function boundedMemo<V>(limit = 4096): (key: string, compute: () => V) => V {
  const values = new Map<string, V>();
  return (key, compute) => {
    const known = values.get(key);
    if (known !== undefined) return known;
    const value = compute();
    if (values.size >= limit) values.clear();
    values.set(key, value);
    return value;
  };
}
