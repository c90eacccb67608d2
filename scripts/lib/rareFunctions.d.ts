export const RARE_DIRECTIVE: string;
export const LATER_DIRECTIVE: string;
export const RARE_MARK: string;
export const RARE_BINDING: string;
export const RARE_PROPERTY: string;
export function markRareFunctions(code: string): string;
export function rareFunctionsPlugin(): { name: string; renderChunk(code: string): { code: string; map: null } };
