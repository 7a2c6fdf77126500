/**
 * `pipeline.schema.json` and the option tables of docs/reference.md, generated from the same zod schemas
 * that validate a pipeline: one source of truth. `npm run docs` writes them; a test fails when
 * the committed copies are stale.
 */
import { z } from "zod";
import { pipelineShape } from "./config.js";
import { queueOptions } from "./queue-options.js";
import type { AnySpec, ComponentKind } from "../core/plugin.js";
import { builtinTypes, loadSpec } from "./registry.js";

const KINDS: ComponentKind[] = ["source", "stage", "sink"];

export async function builtinSpecs(): Promise<Record<ComponentKind, AnySpec[]>> {
  const out = { source: [], stage: [], sink: [] } as Record<ComponentKind, AnySpec[]>;
  for (const kind of KINDS) {
    for (const type of builtinTypes(kind)) out[kind].push(await loadSpec(kind, type, "."));
  }
  return out;
}

/** A component's schema as it appears in a pipeline: its options beside `type`. */
function componentSchema(spec: AnySpec) {
  return spec.options.extend({ type: z.literal(spec.type).describe(spec.summary) });
}

const moduleComponent = z
  .looseObject({ type: z.string().regex(/^(\.{1,2}\/|\/)/).describe("Path of a module whose default export is a pagestream component.") })
  .describe("A component from a module of your own.");

export async function pipelineJsonSchema(): Promise<Record<string, unknown>> {
  const specs = await builtinSpecs();
  const union = (kind: ComponentKind) => z.union([...specs[kind].map(componentSchema), moduleComponent]);
  const schema = pipelineShape.extend({
    source: union("source").describe(pipelineShape.shape.source.description ?? ""),
    stages: z.array(union("stage")).min(1).describe(pipelineShape.shape.stages.description ?? ""),
    sinks: z.array(union("sink")).min(1).describe(pipelineShape.shape.sinks.description ?? ""),
  });
  const json = z.toJSONSchema(schema, { target: "draft-7", io: "input", unrepresentable: "any" });
  return { ...json, title: "pagestream pipeline", description: "A pagestream pipeline.yaml: source → stages → sinks." };
}

interface OptionRow {
  name: string;
  type: string;
  default: string;
  description: string;
}

function optionRows(schema: z.ZodObject): OptionRow[] {
  const json = z.toJSONSchema(schema, { target: "draft-7", io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { type?: string; enum?: unknown[]; default?: unknown; description?: string; items?: { type?: string }; anyOf?: { type?: string }[] }>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, p]) => ({
    name,
    type: p.enum
      ? p.enum.map((v) => JSON.stringify(v)).join(" \\| ")
      : p.type === "array"
        ? `${p.items?.type ?? "any"}[]`
        : (p.type ?? p.anyOf?.map((a) => a.type ?? "any").join(" \\| ") ?? "any"),
    default: p.default !== undefined ? "`" + JSON.stringify(p.default) + "`" : json.required?.includes(name) ? "required" : "",
    description: (p.description ?? "").replaceAll("|", "\\|"),
  }));
}

function table(rows: OptionRow[]): string {
  const lines = ["| option | type | default | what it decides |", "|---|---|---|---|"];
  for (const r of rows) lines.push(`| \`${r.name}\` | ${r.type} | ${r.default} | ${r.description} |`);
  return lines.join("\n");
}

/** The configuration reference (docs/reference.md), in Markdown. */
export async function configReference(): Promise<string> {
  const specs = await builtinSpecs();
  const parts: string[] = ["## Pipeline file", "", table(optionRows(pipelineShape.omit({ source: true, stages: true, sinks: true }))), ""];
  parts.push("## Queue", "", "`queue:` (a distributed run; see [Many machines](many-machines.md)): a Redis URL, or these settings.", "", table(optionRows(queueOptions)), "");
  const titles: Record<ComponentKind, string> = { source: "Sources", stage: "Stages", sink: "Sinks" };
  for (const kind of KINDS) {
    parts.push(`## ${titles[kind]}`, "");
    for (const spec of specs[kind]) {
      parts.push(`### \`type: ${spec.type}\``, "", spec.summary, "", table(optionRows(spec.options)), "");
    }
  }
  return parts.join("\n").trimEnd() + "\n";
}

export const REFERENCE_MARKERS = { start: "<!-- config-reference:start -->", end: "<!-- config-reference:end -->" } as const;

/** Puts the reference between the markers of docs/reference.md. */
export function spliceReference(page: string, reference: string): string {
  const start = page.indexOf(REFERENCE_MARKERS.start);
  const end = page.indexOf(REFERENCE_MARKERS.end);
  if (start < 0 || end < start) throw new Error(`docs/reference.md needs the markers ${REFERENCE_MARKERS.start} and ${REFERENCE_MARKERS.end}`);
  return page.slice(0, start + REFERENCE_MARKERS.start.length) + "\n" + reference + page.slice(end);
}
