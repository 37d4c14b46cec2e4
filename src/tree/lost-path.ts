/** How a diagnostic and the report word the entries a lost line cuts off from the root (one count, one wording). */
export function lostPathText(count: number): string {
  return count === 1 ? "1 entry loses its path to the root" : `${count} entries lose their path to the root`;
}
