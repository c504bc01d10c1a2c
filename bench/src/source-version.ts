import { execFileSync } from 'node:child_process';

/** Which code a run measured: the commit, and whether the packages had uncommitted changes. */
export interface SourceVersion {
  readonly commit: string;
  /** Uncommitted changes under packages/ or bench/ when the run started. */
  readonly dirty: boolean;
}

/** Reads the checkout's commit; `undefined` outside a git checkout. */
export function sourceVersion(repoRoot: string): SourceVersion | undefined {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repoRoot, ...args], { encoding: 'utf8' }).trim();
    return {
      commit: git('rev-parse', '--short', 'HEAD'),
      dirty: git('status', '--porcelain', '--', 'packages', 'bench/src').length > 0,
    };
  } catch {
    return undefined;
  }
}
