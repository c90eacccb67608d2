/** Types of profileFile.js (board profile files, read one way by the build, `npm start` and every Node command). */
export const DEFAULT_PROFILE: string;
export class BoardProfileError extends Error {
  file: string;
  problems: string[];
  constructor(file: string, problems: string[]);
}
export function chosenProfileFile(option: string | undefined, env: Record<string, string | undefined>, root: string): string;
export function readProfileFile(file: string, root: string): { path: string; text: string; json: unknown };
export function loadProfileFile<P>(file: string, root: string, check: (profile: unknown) => string[]): { file: string; profile: P };
