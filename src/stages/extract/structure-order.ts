/**
 * Reading order from a tagged PDF's structure tree (docs/extraction.md §4.1, ISO 32000-1 §14.7–14.8).
 *
 * The tree's leaves are marked-content references (MCIDs) in logical order; each is placed in
 * the block-level element around it (a P, a heading, a list item, a table cell), so paragraph
 * and cell boundaries come from the tags instead of from geometry. Inline elements (Span,
 * Link, Em…) do not start blocks. A block element nested inside another one (a sidebar Div
 * anchored inside a P) interrupts it: the outer element's later content is a new block.
 */

/** A node of `page.getStructTree()`; roles are already role-mapped by pdf.js. */
export interface StructTreeNode {
  role?: string;
  type?: string;
  id?: string;
  alt?: string;
  children?: StructTreeNode[];
}

/** Where one MCID sits in the logical structure. */
export interface ContentPlace {
  /** Position in reading order. */
  order: number;
  /** The block-level element it belongs to (an index, in reading order). */
  block: number;
  /** That element's role: P, H1…H6, LI, TD, Caption… */
  role: string;
  /** For content in a table: which table, row and cell. */
  cell?: { table: number; row: number; column: number };
  /**
   * The content is a typesetter's hyphen: an inline element whose replacement text is a soft
   * hyphen (how LibreOffice tags the hyphens of words it broke).
   */
  softHyphen?: boolean;
}

export interface StructureOrder {
  places: Map<string, ContentPlace>;
  /** Per table, the number of cells of each row (empty cells included). */
  tables: Map<number, number[]>;
}

/** Deeper trees are cut here: a hostile file cannot exhaust the stack; real trees are a few levels deep (docs/extraction.md §4.1). */
export const MAX_STRUCTURE_DEPTH = 128;

const BLOCK_ROLES = new Set([
  "Document", "Part", "Art", "Sect", "Div", "BlockQuote", "Caption", "TOC", "TOCI", "Index",
  "P", "H", "H1", "H2", "H3", "H4", "H5", "H6", "L", "LI", "Table", "Figure", "Form", "Note",
  "Title", "Aside", "FENote", "BibEntry",
]);

const TABLE_SECTIONS = new Set(["THead", "TBody", "TFoot"]);

/** Elements a producer wraps a list item's body text in, which do not make it a paragraph of its own. */
const LIST_BODY_WRAPPERS = new Set(["P", "Part", "Div", "Sect"]);

interface Walk {
  places: Map<string, ContentPlace>;
  tables: Map<number, number[]>;
  order: number;
  blocks: number;
  tableCount: number;
}

interface Scope {
  block: number;
  role: string;
  table: { id: number; rows: number[] } | undefined;
  cell: ContentPlace["cell"] | undefined;
  softHyphen: boolean | undefined;
}

/**
 * A scope inside `parent`, with its own role, cell and soft hyphen. Every scope has all five
 * fields (a spread left out those the parent lacked), so the walk over a tagged page's elements
 * reads objects of one shape: thousands on a dense tagged page.
 */
function inside(parent: Scope, role: string, cell: Scope["cell"], softHyphen: boolean): Scope {
  return { block: parent.block, role, table: parent.table, cell, softHyphen };
}

/** The logical order of a page's MCIDs, or null when the page has no structure to follow. */
export function readStructureOrder(tree: StructTreeNode | null | undefined): StructureOrder | null {
  if (!tree?.children?.length) return null;
  const walk: Walk = { places: new Map(), tables: new Map(), order: 0, blocks: 0, tableCount: 0 };
  const root: Scope = { block: walk.blocks++, role: "Document", table: undefined, cell: undefined, softHyphen: undefined };
  for (const child of tree.children) visit(child, root, 1, walk);
  return walk.places.size ? { places: walk.places, tables: walk.tables } : null;
}

function visit(node: StructTreeNode, parent: Scope, depth: number, walk: Walk): void {
  if (depth > MAX_STRUCTURE_DEPTH) return;
  if (node.type === "content") {
    if (node.id && !walk.places.has(node.id)) {
      walk.places.set(node.id, {
        order: walk.order++,
        block: parent.block,
        role: parent.role,
        ...(parent.cell ? { cell: parent.cell } : {}),
        ...(parent.softHyphen ? { softHyphen: true } : {}),
      });
    }
    return;
  }
  if (node.type) return; // an object or annotation reference: no text of this page's content stream
  const scope = enter(node, parent, walk);
  for (const child of node.children ?? []) {
    visit(child, scope, depth + 1, walk);
    // Content of this element that comes after a nested block is a new paragraph.
    if (startsBlock(child, scope) && scope !== parent) scope.block = walk.blocks++;
  }
}

function enter(node: StructTreeNode, parent: Scope, walk: Walk): Scope {
  const role = node.role ?? "";
  const softHyphen = parent.softHyphen || node.alt === "\u00AD";
  if (role === "Table") {
    const table = { id: walk.tableCount++, rows: [] as number[] };
    walk.tables.set(table.id, table.rows);
    return { block: walk.blocks++, role, table, cell: undefined, softHyphen };
  }
  if (parent.table && !parent.cell) {
    if (role === "TR") {
      parent.table.rows.push(0);
      return inside(parent, role, parent.cell, softHyphen);
    }
    if ((role === "TD" || role === "TH") && parent.table.rows.length) {
      const row = parent.table.rows.length - 1;
      const column = parent.table.rows[row]!++;
      return inside(parent, role, { table: parent.table.id, row, column }, softHyphen);
    }
    if (TABLE_SECTIONS.has(role)) return inside(parent, parent.role, parent.cell, softHyphen);
  }
  // A list item's body is one paragraph with its label, though the producer wraps it in a P or a
  // grouping element (LaTeX's tagging: LI > Lbl, LBody > Part > P): "•" and its text are one item.
  if (parent.role === "LI" && LIST_BODY_WRAPPERS.has(role)) return inside(parent, parent.role, parent.cell, softHyphen);
  // Inside a cell everything belongs to the cell; elsewhere a block element starts a block.
  if (!parent.cell && BLOCK_ROLES.has(role)) return { block: walk.blocks++, role, table: undefined, cell: undefined, softHyphen };
  return softHyphen === parent.softHyphen ? parent : inside(parent, parent.role, parent.cell, softHyphen);
}

function startsBlock(node: StructTreeNode, scope: Scope): boolean {
  return !scope.cell && !node.type && (BLOCK_ROLES.has(node.role ?? "") || node.role === "Table");
}
