export function entryInBlock(code: string): string;
export function entryInBlockPlugin(): { name: string; renderChunk(code: string): { code: string; map: null } };
