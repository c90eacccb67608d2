export const HOST_ENTRIES: Record<string, string>;
export function hostDir(root?: string): string;
export function hostBundle(name: string, root?: string): string;
export function hasSources(root?: string): boolean;
export function hostBuildFresh(root?: string): boolean;
export class HostBuildUnavailable extends Error {}
export function buildHost(root?: string): Promise<string[]>;
export function freshHostBundle(name: string, root?: string): Promise<string>;
