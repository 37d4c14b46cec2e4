import { recoveryMarker } from "../../src/kit/host-messages.js";
import { SessionBuilder } from "./session-builder.js";

/** Records in the seed's stalled session, header included. */
export const SCHOOL_RECORDS = 97;

const OBJECTS = [
  "grade",
  "class",
  "teacher",
  "course",
  "student",
  "enrollment",
  "enrollment status",
  "classroom",
  "timetable slot",
  "guardian",
  "school term",
];

const PROMISES = [
  "Let me check the compiler errors first.",
  "I'll look at the compiler errors again before writing the scenarios.",
  "Let me check the old compiler errors first, then I will describe the scenarios.",
  "Now I will check the compiler errors in the build output.",
];

/**
 * The seed's case, synthetic: a school model grows to eleven objects, the user asks for business scenarios, and the
 * model keeps promising to check compiler errors that were fixed long ago, with no tool call. 97 records.
 */
export function stalledSchoolSession(cwd = "/home/ai/t003"): SessionBuilder {
  const b = new SessionBuilder({ cwd, sessionId: "01a16ecb-97a2-771e-b335-b7aca163bc36", seed: 7 });
  b.modelChange("faux", "faux-1");
  b.thinking("off");
  b.user("Compile models/school-service.xml and fix the errors. Constraint: never edit files under generated/.");
  b.toolRound("read", { path: "models/school-service.xml" }, '<model name="school-service">…</model>', {
    path: `${cwd}/models/school-service.xml`,
  });
  b.toolRound(
    "app_build",
    {},
    "error E102: unknown type 'Grade' at line 14\nerror E221: duplicate key 'class_id'",
    { status: "failed" },
    true,
  );
  for (let i = 0; i < 6; i++) {
    const name = OBJECTS[i] as string;
    b.assistant(`Fixing the definition of ${name}.`, [
      { name: "edit", args: { path: "models/school-service.xml", edits: [] } },
    ]);
    const call = b.entries[b.entries.length - 1]?.id as string;
    b.toolResult(b.toolCallId(call), "edit", `Edited models/school-service.xml (${name}).`, {
      path: `${cwd}/models/school-service.xml`,
      mutated: true,
    });
    b.toolRound(
      "app_build",
      {},
      i < 5 ? `error E3${i}0: unresolved reference in ${name}` : "build ok",
      { status: i < 5 ? "failed" : "passed" },
      i < 5,
    );
  }
  b.assistant("The model compiles now: all compiler errors are fixed.");
  b.user(
    "Good. Now extend the model with guardian, classroom, timetable slot and school term, keeping the naming rules.",
  );
  for (const name of OBJECTS.slice(6)) {
    b.assistant(`Adding ${name}.`, [{ name: "edit", args: { path: "models/school-service.xml", edits: [] } }]);
    const call = b.entries[b.entries.length - 1]?.id as string;
    b.toolResult(b.toolCallId(call), "edit", `Edited models/school-service.xml (${name}).`, {
      path: `${cwd}/models/school-service.xml`,
      mutated: true,
    });
  }
  b.toolRound("app_build", {}, "build ok", { status: "passed" });
  b.toolRound("app_test", {}, "12 passed, 0 failed", { status: "passed", testsRun: 12 });
  b.assistant(`The model now has eleven objects: ${OBJECTS.join(", ")}. Build and tests pass.`);
  b.user("Read docs/application-guide.md and tell me which enrollment states exist.");
  b.toolRound(
    "read",
    { path: "docs/application-guide.md" },
    "# Application guide\nEnrollment states: applied, admitted, enrolled, withdrawn.",
    { path: `${cwd}/docs/application-guide.md` },
  );
  b.assistant("The guide lists four enrollment states: applied, admitted, enrolled and withdrawn.");
  const asks = [
    "Using the expanded eleven-object model, describe the main business scenarios (enrollment, timetabling, grading).",
    "Please give me the business scenarios now; the compiler errors were fixed long ago.",
    "The scenarios, please. Do not check compiler errors again.",
    "Still waiting for the business scenarios.",
    "Continue with the scenarios.",
    "Please continue.",
  ];
  let promise = 0;
  while (b.entries.length < SCHOOL_RECORDS - 1) {
    b.user(asks[Math.min(promise, asks.length - 1)] as string);
    if (b.entries.length < SCHOOL_RECORDS - 1) b.assistant(PROMISES[promise % PROMISES.length] as string);
    promise++;
  }
  return b;
}

/** The same session after `context-kit recover`: one visible marker appended under the stalled leaf. */
export function recoveredSchoolSession(cwd?: string): SessionBuilder {
  const b = stalledSchoolSession(cwd);
  const promiseEntryIds = b.entries
    .filter((e) => e.type === "message" && e.message.role === "assistant")
    .slice(-3)
    .map((e) => e.id);
  const requestId = [...b.entries].reverse().find((e) => e.type === "message" && e.message.role === "user")?.id ?? null;
  const m = recoveryMarker({
    requestId,
    promiseEntryIds,
    reason: "3 similar action-promise replies with no tool call or result between them",
  });
  b.customMessage(m.customType, m.content, m.details);
  return b;
}

/**
 * The recovered session continued, then replayed from the original stalled position on a validation branch, as the
 * seed's review did: one marker per branch, every record in one append-only file.
 */
export function branchedSchoolSession(cwd?: string): SessionBuilder {
  const b = recoveredSchoolSession(cwd);
  const stalledLeaf = b.entries[SCHOOL_RECORDS - 2]?.id as string;
  b.toolRound("read", { path: "models/school-service.xml" }, '<model name="school-service">…eleven objects…</model>', {
    path: "/home/ai/t003/models/school-service.xml",
  });
  b.assistant(
    "Business scenarios for the eleven-object model:\n1. Enrollment: a guardian applies…\n2. Timetabling: …\n3. Grading: …",
  );
  b.user("Which scenario touches enrollment status?");
  b.assistant("Enrollment and withdrawal both change the enrollment status.");
  b.at(stalledLeaf);
  b.branchSummary(stalledLeaf, "Validation branch: replaying the original stalled position.");
  const m = recoveryMarker({
    requestId: null,
    promiseEntryIds: [],
    reason: "validation replay from the stalled position",
  });
  b.customMessage(m.customType, m.content, m.details);
  b.toolRound("read", { path: "docs/application-guide.md" }, "# Application guide…", {
    path: "/home/ai/t003/docs/application-guide.md",
  });
  b.assistant("Scenario analysis: enrollment, timetabling, grading and withdrawal.");
  return b;
}
