export const HOT_GLOBALS: [string, string][];
export function toOuterBlock(code: string): string;
export function fromOuterBlock(code: string): string;
export function outerBlockPlugin(): { name: string; renderChunk(code: string): { code: string; map: null } };
export function declaredIn(fnNode: object, cache: WeakMap<object, Set<string>>): Set<string>;
export function applyEdits(text: string, start: number, end: number, edits: [number, number, string][]): string;
