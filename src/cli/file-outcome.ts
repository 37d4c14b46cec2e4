import { InputError } from "../files/input-error.js";

/** A file a folder command could not use: named, with the error's code and reason; the other files still run. */
export interface FileFailure {
  file: string;
  error: { code: string; message: string };
}

export function isFailure(result: object): result is FileFailure {
  return "error" in result && typeof (result as FileFailure).error?.code === "string";
}

/** Runs one file's work; bad input becomes that file's failure instead of ending the whole run. */
export function settle<T>(shown: string, work: () => T): T | FileFailure {
  try {
    return work();
  } catch (error) {
    if (error instanceof InputError) return { file: shown, error: { code: error.code, message: error.message } };
    throw error;
  }
}

/** `settle` for asynchronous work. */
export async function settleAsync<T>(shown: string, work: () => Promise<T>): Promise<T | FileFailure> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InputError) return { file: shown, error: { code: error.code, message: error.message } };
    throw error;
  }
}

export function failureLine(command: string, failure: FileFailure): string {
  return `context-kit ${command}: ${failure.error.code}: ${failure.error.message}`;
}
