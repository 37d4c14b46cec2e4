import { escapeHtml } from "./html.js";

/** One bar group: a label and a value per series. */
export interface ChartGroup {
  label: string;
  values: number[];
}

export const SERIES = [
  { name: "stalls", colour: "#c0392b" },
  { name: "loops", colour: "#d68910" },
  { name: "denials", colour: "#2e6da4" },
];

/**
 * Grouped bars as inline SVG (the page loads nothing): one group per label, one bar per series, each bar titled with
 * its number so a reader (or a screen reader) gets the value, not only the length.
 */
export function barChart(title: string, groups: readonly ChartGroup[], id: string): string {
  const bar = 10;
  const gap = 14;
  const groupWidth = SERIES.length * bar + gap;
  const height = 120;
  const top = 22;
  const max = Math.max(1, ...groups.flatMap((g) => g.values));
  const width = Math.max(260, groups.length * groupWidth + 70);
  const bars = groups
    .map((g, i) => {
      const x0 = 60 + i * groupWidth;
      const rects = g.values
        .map((v, s) => {
          const h = Math.round((v / max) * (height - top));
          const series = SERIES[s] as (typeof SERIES)[number];
          return `<rect class="bar" data-series="${series.name}" data-value="${v}" x="${x0 + s * bar}" y="${top + height - top - h}" width="${bar - 1}" height="${h}" fill="${series.colour}"><title>${escapeHtml(`${g.label}: ${v} ${series.name}`)}</title></rect>`;
        })
        .join("");
      const label = `<text x="${x0 + (SERIES.length * bar) / 2}" y="${height + 14}" text-anchor="end" transform="rotate(-35 ${x0 + (SERIES.length * bar) / 2} ${height + 14})">${escapeHtml(shorten(g.label))}</text>`;
      return `<g class="group" data-label="${escapeHtml(g.label)}">${rects}${label}</g>`;
    })
    .join("\n");
  const legend = SERIES.map(
    (s, i) =>
      `<rect x="${60 + i * 70}" y="2" width="10" height="10" fill="${s.colour}"/><text x="${74 + i * 70}" y="11">${s.name}</text>`,
  ).join("");
  return `<figure class="chart" id="${id}"><figcaption>${escapeHtml(title)}</figcaption>
<svg role="img" aria-label="${escapeHtml(title)}" width="${width}" height="${height + 90}" viewBox="0 0 ${width} ${height + 90}" font-size="10">
<line x1="56" y1="${height}" x2="${width}" y2="${height}" stroke="#888"/><text x="52" y="${top + 6}" text-anchor="end">${max}</text>
${bars}
${legend}
</svg></figure>`;
}

function shorten(label: string): string {
  return label.length > 18 ? `${label.slice(0, 17)}…` : label;
}
