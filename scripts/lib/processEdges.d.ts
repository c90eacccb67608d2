export function versionLine(program: string): string;
export function wantsVersion(args: string[]): boolean;
export function systemErrorText(e: unknown): string;
export function failWith(program: string, text: string): never;
export function guardOutput(program: string, options?: { onClosed?: () => void }): void;
export function failUnexpected(program: string, e: unknown): never;
