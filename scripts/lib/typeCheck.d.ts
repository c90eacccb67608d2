export interface CheckResult {
  errors: string[];
  warnings: string[];
}
export class TypeCheckError extends Error {
  constructor(errors: string[]);
}
export function checkPassed(dir: string, key: string): boolean;
export function rememberCheck(dir: string, key: string): void;
export function sharedCheck(dir: string, key: string, run: () => CheckResult, waitMs?: number): Promise<CheckResult>;
