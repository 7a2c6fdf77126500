/**
 * Environment references in pipeline.yaml: `${NAME}` in any string value is replaced by the
 * environment variable NAME, so what differs per machine or must stay secret (a profile, an
 * endpoint, a password) stays out of the file. `${NAME:-fallback}` takes the fallback when NAME
 * is unset or empty; `$${` writes a literal `${`. An unset variable without a fallback is a
 * configuration error at its line and column. Keys, numbers and booleans are never expanded.
 */
import { isPair, isScalar, isSeq, visit, type Document } from "yaml";

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{/g;

/** Where a problem is: its offset in the text and its path in the pipeline (`["source", "profile"]`). */
export type IssueReporter = (offset: number, path: (string | number)[], message: string) => void;

/** Replaces the references in the document's string values in place, reporting each one that cannot be. */
export function expandEnvReferences(doc: Document, env: NodeJS.ProcessEnv, report: IssueReporter): void {
  visit(doc, {
    Scalar(key, node, ancestors) {
      if (key === "key" || typeof node.value !== "string" || !node.value.includes("${")) return;
      const problems: string[] = [];
      node.value = node.value.replace(REFERENCE, (match, name: string | undefined, fallback: string | undefined) => {
        if (match === "$${") return "${";
        if (name === undefined) {
          problems.push('"${" starts no environment reference: write ${NAME} (letters, digits and _), or $${ for a literal "${"');
          return match;
        }
        const value = env[name];
        if (value !== undefined && (value !== "" || fallback === undefined)) return value;
        if (fallback !== undefined) return fallback;
        problems.push(`environment variable ${name} is not set (write \${${name}:-fallback} for a default)`);
        return match;
      });
      for (const problem of problems) report(node.range?.[0] ?? 0, pathOf([...ancestors, node]), problem);
    },
  });
}

/** A node's path from its ancestors: the keys of the pairs and the positions in the lists it sits in. */
function pathOf(ancestors: readonly unknown[]): (string | number)[] {
  const path: (string | number)[] = [];
  ancestors.forEach((node, i) => {
    if (isPair(node) && isScalar(node.key)) path.push(String(node.key.value));
    else if (isSeq(node)) path.push(node.items.indexOf(ancestors[i + 1] as never));
  });
  return path;
}
