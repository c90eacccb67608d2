export function startDeviceTab(_code: string, _board: unknown): void { /* next step */ }
