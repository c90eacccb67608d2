export const GLOBALS_AS_PARAMS: string[];
export function globalsAsParams(code: string): string;
export function globalsAsParamsPlugin(): { name: string; renderChunk(code: string): { code: string; map: null } };
