export interface SerialPortInfo {
  path: string;
  vendorId?: string;
  productId?: string;
  manufacturer?: string;
  product?: string;
  serialNumber?: string;
}
export interface PortListing {
  ports: SerialPortInfo[];
  uploaderPaths: string[];
}
export const ESP32_USB_IDS: { vendorId: string; productId: string; chip: string }[];
export class PortError extends Error {}
export type Wsl = "wsl1" | "wsl2" | null;
export function sysfsPorts(classDir?: string, devDir?: string): SerialPortInfo[];
export function listSerialPorts(options?: { platform?: string; env?: Record<string, string | undefined> }): Promise<PortListing>;
export function esp32Chip(p: SerialPortInfo): string | undefined;
export function describePort(p: SerialPortInfo): string;
export function formatPortList(ports: SerialPortInfo[]): string;
export function wslKind(readRelease?: () => string): Wsl;
export function choosePort(ports: SerialPortInfo[], options?: { platform?: string; wsl?: Wsl }): SerialPortInfo;
export function checkNamedPort(
  name: string,
  options?: { platform?: string; wsl?: Wsl; listPorts?: () => Promise<PortListing> },
): Promise<{ path: string; note?: string }>;
export function resolveBoardPort(
  named: string | null | undefined,
  options?: { platform?: string; wsl?: Wsl; listPorts?: () => Promise<PortListing> },
): Promise<{ path: string; lines: string[] }>;
