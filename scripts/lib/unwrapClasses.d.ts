export function unwrapClasses(code: string): { code: string; unwrapped: string[] };
export function unwrapClassesPlugin(): { name: string; renderChunk(code: string): { code: string; map: null } };
