/** Where cache entries live: env PET_BUILD_CACHE_DIR or node_modules/.cache/espruino-pet/firmware under `root`. */
export function buildCacheDir(root: string, env?: Record<string, string | undefined>): string;
/** False when env PET_BUILD_CACHE is "0", "false" or "off". */
export function buildCacheEnabled(env?: Record<string, string | undefined>): boolean;
/** The SHA-256 key of one build: the entry, the profile's text, options, and the content of every input under `root`. */
export function buildKey(root: string, build: { entry: string; boardText: string; options?: unknown }): string;
export function readCached(dir: string, key: string): Record<string, unknown> | null;
export function writeCached(dir: string, key: string, value: Record<string, unknown>): void;
/** The entry for `key`, built by `build` unless another process is building it (then its entry is awaited). */
export function cachedBuild<T extends Record<string, unknown>>(dir: string, key: string, build: () => Promise<T>, waitMs?: number): Promise<{ value: T; cached: boolean }>;
/** `work()` done once by the processes that want its result: `done()` when another did it, else under the lock file `lock`. */
export function onceAcrossProcesses<T>(lock: string, done: () => T | null, work: () => T | Promise<T>, waitMs: number): Promise<T>;
