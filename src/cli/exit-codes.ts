/** The CLI's exit codes (docs/cli.md), in a module of their own so that main.ts loads no command to use them. */
export const EXIT = { finished: 0, failed: 1, usage: 2, paused: 3, locked: 4, cancelled: 130 } as const;
