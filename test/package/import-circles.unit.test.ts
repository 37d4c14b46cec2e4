import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** Module graph of the kit's sources: every relative import, type-only ones included. */
function graph(): Map<string, string[]> {
  const files = ["src", "reducers", "projections"].flatMap((d) => sources(join(ROOT, d)));
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const deps = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)\.js["']/g)].map((m) =>
      normalize(join(dirname(file), `${m[1]}.ts`)),
    );
    edges.set(
      file,
      deps.filter((d) => known.has(d)),
    );
  }
  return edges;
}

/** Strongly connected components of more than one module (Tarjan). */
function circles(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(relative(ROOT, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("the kit's modules", () => {
  it("import one another without circles (types included)", () => {
    const edges = graph();
    expect(edges.size).toBeGreaterThan(100);
    expect(circles(edges)).toEqual([]);
  });

  it("the check finds a circle when there is one", () => {
    const edges = new Map([
      ["a", ["b"]],
      ["b", ["a"]],
      ["c", []],
    ]);
    expect(circles(edges).map((c) => c.length)).toEqual([2]);
  });
});
