import type { Node } from "acorn";

export interface Finding {
  kind: "parse" | "helper" | "global" | "member" | "prototype" | "label" | "require" | "order" | "sequence-index";
  pos: number;
  message: string;
}
export const FORBIDDEN_HELPERS: string[];
export const BUILTIN_CONSTRUCTORS: string[];
export const FORBIDDEN_GLOBALS: string[];
export const FORBIDDEN_MEMBERS: Record<string, string[]>;
export const ALLOWED_MODULES: string[];
export function parseEs5(code: string): { ast: Node | null; error: Finding | null };
export function checkApiUse(ast: Node, code?: string | null): Finding[];
export function checkDeclarationOrder(ast: Node): Finding[];
export function checkBundle(code: string, options?: { order?: boolean }): Finding[];
export function formatFindings(code: string, findings: Finding[]): string;
