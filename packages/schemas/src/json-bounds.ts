// Bounds of the free-form JSON objects that requests carry (metadata, client facts, terms, config): how deep they
// nest and how many bytes their JSON takes. Used by the schemas' refinements; not part of the public schemas.

/**
 * Whether `value` nests at most `max` levels deep (the value itself is depth 1). Iterative, so a hostile body nested
 * a hundred thousand levels deep cannot exhaust the stack.
 */
export function depthWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return false;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return true;
}

/** The size of `value`'s JSON in UTF-8 bytes. */
export const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;
