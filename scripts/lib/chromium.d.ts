import type { BrowserContext } from "playwright-core";
export const CHROMIUM: string;
export const INSTALL_LINE: string;
export const CHROMIUM_ARGS: string[];
export function launchChromium(contextOptions?: Record<string, unknown>): Promise<{ context: BrowserContext; close(): Promise<void> }>;
