export const WEB_OUT: string;
export const WEB_BOARD: string;
export const DEVICE_BOARD: string;
export const WEB_BUDGET_BYTES: number;
export interface WebBuildResult {
  outDir: string;
  files: { name: string; bytes: number }[];
  totalBytes: number;
}
export function buildWeb(options?: { outDir?: string }): Promise<WebBuildResult>;
export function builtHtml(outDir?: string): string;
