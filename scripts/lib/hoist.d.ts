export function hoistVars(code: string): string;
export function parenthesizeIndexSequences(code: string): string;
export function espruinoHoistPlugin(): { name: string; renderChunk(code: string): { code: string; map: null } };
