import type ts from "typescript";
export function readFirmwareConfig(t: typeof ts, path: string): { options: ts.CompilerOptions; fileNames: string[]; errors: ts.Diagnostic[] };
export function formatDiagnostics(t: typeof ts, diagnostics: readonly ts.Diagnostic[], root: string): string;
