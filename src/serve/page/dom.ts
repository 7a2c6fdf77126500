/**
 * Building the page's elements. Every string becomes a text node or an attribute value, never
 * markup: nothing from a PDF (or anywhere) is parsed as HTML, so `<script>` in a document's
 * text shows as those characters and runs nothing.
 */
type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** Attributes, set with setAttribute (values are not parsed as markup). */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props?.class) element.className = props.class;
  for (const [name, value] of Object.entries(props?.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const [type, listener] of Object.entries(props?.on ?? {})) element.addEventListener(type, listener as EventListener);
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
}

/** Text with some stretches wrapped (marked matches, joined words): spans are [start, end) in `text`. */
export function markedText(text: string, spans: readonly { start: number; end: number; wrap: (text: string) => Node }[]): Node[] {
  const nodes: Node[] = [];
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < at || span.end <= span.start) continue; // overlapping spans: the first wins
    if (span.start > at) nodes.push(document.createTextNode(text.slice(at, span.start)));
    nodes.push(span.wrap(text.slice(span.start, span.end)));
    at = span.end;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

export const mark = (text: string) => h("mark", null, text);

export function plural(n: number, one: string, many = one + "s"): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

export function pageRange([first, last]: readonly [number, number]): string {
  return first === last ? `p. ${first}` : `pp. ${first}–${last}`;
}
