export interface StaticServer {
  url: string;
  port: number;
  close(): Promise<void>;
}
export function serveStatic(dir: string, options?: { port?: number; host?: string }): Promise<StaticServer>;
