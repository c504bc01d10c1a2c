/**
 * The version ranges a new project gets for the tools it builds and tests with. Where this
 * repository uses the same tool, it is the range the repository uses (a unit test checks).
 */
export const TOOL_VERSIONS = {
  '@types/node': '^20.19.43',
  jose: '^6.2.18',
  tsx: '^4.23.15',
  typescript: '^6.0.3',
  vitest: '^4.1.12',
} as const;
