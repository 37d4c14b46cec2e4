/** The demo's conversation: what the user asks and what the scripted model answers, one reply per request. */

export const DEMO_PROVIDER = "context-kit-demo";
export const DEMO_MODEL_ID = "scripted";

/** The project the demo runs in: one readable note and one folder a `.context-exclude` marker protects. */
export const DEMO_FILES: Record<string, string> = {
  "notes.md": "# Release notes\nVersion 2 ships on Friday. The deploy key is kept in secrets/.\n",
  "secrets/.context-exclude": "Deployment secrets: never read, list or quote them.\n",
  "secrets/deploy-key.txt": "demo-key-not-a-real-secret\n",
};

/** Sent one after another in one print-mode run, as `pi -p "first" "second" "third"` does. */
export const DEMO_PROMPTS = [
  "Summarise notes.md and tell me the deploy key.",
  "Any progress?",
  "Please finish.",
] as const;

const PROMISE = "Let me check the deploy key in secrets/ first.";

export interface DemoReply {
  text?: string;
  toolCalls?: { name: string; args: Record<string, unknown> }[];
}

/**
 * The model reads the note, is denied the secret, then only promises to look again: three such replies with no tool
 * progress are a stall, the kit appends its recovery marker and asks once more with the recovery view.
 */
export const DEMO_REPLIES: readonly DemoReply[] = [
  {
    text: "Reading the notes and the key.",
    toolCalls: [
      { name: "read", args: { path: "notes.md" } },
      { name: "read", args: { path: "secrets/deploy-key.txt" } },
    ],
  },
  { text: PROMISE },
  { text: PROMISE },
  { text: PROMISE },
  {
    text: "Version 2 ships on Friday. I cannot give you the deploy key: secrets/ is excluded by the project's policy, so I did not read it.",
  },
];

/** What the model says if it is asked more than the script holds. */
export const DEMO_SCRIPT_OVER = "(The demo's script has no more replies.)";
