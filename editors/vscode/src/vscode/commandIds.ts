// The commands the extension contributes (package.json), registered at
// activation by extension.ts and handled by wiring.ts.

/** COMMAND_IDS lists every contributed command. */
export const COMMAND_IDS = [
  "companion.openChat",
  "companion.newSession",
  "companion.cancel",
  "companion.acceptDiff",
  "companion.rejectDiff",
  "companion.restart",
  "companion.setApiKey",
  "companion.showLog",
  "companion.addSelection",
  "companion.showStats",
] as const;

/** CommandId is one of COMMAND_IDS. */
export type CommandId = (typeof COMMAND_IDS)[number];
