export function unwrapClasses(code: string): { code: string; unwrapped: string[] };
export function unwrapClassesPlugin(): { name: string; renderChunk(code: string): { code: string; map: null } };
/** The variable an unwrapped class's methods are assigned through. */
export const PROTOTYPE: string;
