const decoder = new TextDecoder("utf-8", { fatal: true });

/** Drops a multi-byte character that a byte limit cut in half. */
export function wholeCharacters(bytes: Buffer): Buffer {
  let end = bytes.length;
  let back = 0;
  while (back < 4 && end - back - 1 >= 0 && ((bytes[end - back - 1] ?? 0) & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead !== undefined && lead >= 0xc0) {
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < need) end -= back + 1;
  }
  return bytes.subarray(0, end);
}

/** Strict UTF-8 text without NUL bytes, or undefined. `partial`: the bytes are a prefix, so a cut tail is fine. */
export function decodeText(bytes: Buffer, partial: boolean): string | undefined {
  const whole = partial ? wholeCharacters(bytes) : bytes;
  if (whole.includes(0)) return undefined;
  try {
    return decoder.decode(whole);
  } catch {
    return undefined;
  }
}
