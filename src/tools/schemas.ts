import type { JsonSchema } from "./tool-types.js";

/** Exactly the host's built-in input schemas (Pi 0.73.1), as plain JSON schemas. */

const str = (description: string) => ({ type: "string", description });
const num = (description: string) => ({ type: "number", description });
const bool = (description: string) => ({ type: "boolean", description });

const object = (properties: Record<string, unknown>, required: string[], closed = false): JsonSchema => ({
  type: "object",
  ...(required.length > 0 ? { required } : {}),
  properties,
  ...(closed ? { additionalProperties: false } : {}),
});

export const readSchema = object(
  {
    path: str("Path to the file to read (relative or absolute)"),
    offset: num("Line number to start reading from (1-indexed)"),
    limit: num("Maximum number of lines to read"),
  },
  ["path"],
);

export const grepSchema = object(
  {
    pattern: str("Search pattern (regex or literal string)"),
    path: str("Directory or file to search (default: current directory)"),
    glob: str("Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'"),
    ignoreCase: bool("Case-insensitive search (default: false)"),
    literal: bool("Treat pattern as literal string instead of regex (default: false)"),
    context: num("Number of lines to show before and after each match (default: 0)"),
    limit: num("Maximum number of matches to return (default: 100)"),
  },
  ["pattern"],
);

export const findSchema = object(
  {
    pattern: str("Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'"),
    path: str("Directory to search in (default: current directory)"),
    limit: num("Maximum number of results (default: 1000)"),
  },
  ["pattern"],
);

export const lsSchema = object(
  {
    path: str("Directory to list (default: current directory)"),
    limit: num("Maximum number of entries to return (default: 500)"),
  },
  [],
);

export const writeSchema = object(
  {
    path: str("Path to the file to write (relative or absolute)"),
    content: str("Content to write to the file"),
  },
  ["path", "content"],
);

export const editSchema = object(
  {
    path: str("Path to the file to edit (relative or absolute)"),
    edits: {
      type: "array",
      description:
        "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
      items: object(
        {
          oldText: str(
            "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
          ),
          newText: str("Replacement text for this targeted edit."),
        },
        ["oldText", "newText"],
        true,
      ),
    },
  },
  ["path", "edits"],
  true,
);

export interface ReadParams {
  path: string;
  offset?: number;
  limit?: number;
}
export interface GrepParams {
  pattern: string;
  path?: string;
  glob?: string;
  ignoreCase?: boolean;
  literal?: boolean;
  context?: number;
  limit?: number;
}
export interface FindParams {
  pattern: string;
  path?: string;
  limit?: number;
}
export interface LsParams {
  path?: string;
  limit?: number;
}
export interface WriteParams {
  path: string;
  content: string;
}
export interface EditParams {
  path: string;
  edits: { oldText: string; newText: string }[];
}
